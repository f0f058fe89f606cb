package io.locksmith.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
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
    void aGroupIsNamedAsInItsUri() {
        assertThatThrownBy(() -> MemoryFaults.connect("bad name", LockOptions.defaults()))
                .as("memory faults: the group is the name in memory://NAME")
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("memory URI");
    }
}
