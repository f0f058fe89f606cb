package io.locksmith.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locksmith.DistributedSemaphore;
import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.spi.Hold;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The fault controls the kit's memory subject and the fault suite lean on. */
class MemoryFaultsTest {

    @Test
    void aCutConnectionFailsEveryCallUntilRestoredAndTheStoreKeepsItsLocks() {
        MemoryFaults.Connection worker = MemoryFaults.connect("faults-cut", LockOptions.defaults());
        try {
            LockHandle held = worker.client().lock("x").acquire(Duration.ZERO);
            worker.cut();
            assertThatThrownBy(() -> worker.client().lock("y").tryAcquire())
                    .as("memory faults, cut: an attempt fails as over a cut connection")
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("memory://faults-cut is cut");
            assertThatThrownBy(() -> worker.client().lock("x").status())
                    .as("memory faults, cut: so does a look at a lock")
                    .isInstanceOf(LockBackendException.class);
            worker.restore();
            assertThat(worker.client().lock("x").status().fencingToken())
                    .as("memory faults, restore: the store kept the lock taken before the cut")
                    .hasValue(held.fencingToken());
            held.close();
            assertThat(worker.client().lock("y").tryAcquire())
                    .as("memory faults, restore: calls go through again")
                    .isPresent();
        } finally {
            worker.client().close();
        }
    }

    @Test
    void theFaultsReachSemaphoresAndReadWriteLocksToo() {
        MemoryFaults.Connection worker = MemoryFaults.connect("faults-kinds", LockOptions.defaults());
        MemoryFaults.Connection other = MemoryFaults.connect("faults-kinds", LockOptions.defaults());
        try {
            DistributedSemaphore semaphore = worker.client().semaphore("s", 2);
            LockHandle permit = semaphore.acquire(Duration.ZERO);
            assertThat(semaphore.holders())
                    .as("memory faults: a cuttable connection still lists a semaphore's holders")
                    .hasSize(1);
            worker.cut();
            assertThatThrownBy(semaphore::holders)
                    .as("memory faults, cut: listing holders fails as over a cut connection")
                    .isInstanceOf(LockBackendException.class);
            assertThatThrownBy(
                            () -> worker.client().readWriteLock("rw").readLock().tryAcquire())
                    .as("memory faults, cut: so does a read lock's attempt")
                    .isInstanceOf(LockBackendException.class);
            worker.restore();
            MemoryFaults.removeLockState("faults-kinds", "s", Hold.Kind.PERMIT);
            assertThat(other.client().semaphore("s", 1).tryAcquire())
                    .as("memory faults: removing a semaphore's state frees every permit and its number")
                    .isPresent();
            assertThat(permit.fencingToken()).isPositive();
        } finally {
            worker.client().close();
            other.client().close();
        }
    }

    @Test
    void aGroupIsNamedAsInItsUri() {
        assertThatThrownBy(() -> MemoryFaults.connect("bad name", LockOptions.defaults()))
                .as("memory faults: the group is the name in memory://NAME")
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("memory URI");
    }
}
