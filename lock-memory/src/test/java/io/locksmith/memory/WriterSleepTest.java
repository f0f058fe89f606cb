package io.locksmith.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.Held;
import io.locksmith.spi.Hold;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A waiting writer keeps new readers out however long a holder's lease it is told: it must try
 * again, and so renew its waiting mark (twice its own lease), before the mark runs out. Memory
 * tells a writer at most its own lease; this test reports the readers' true remaining lease, as a
 * backend that does not cap it would, so that it is the core's cap on the writer's sleep that
 * keeps the readers out.
 */
class WriterSleepTest {

    @Test
    void aWaitingWriterToldTheReadersLongLeaseStillKeepsNewReadersOut() {
        LockClient readers = LockClient.open("memory://writer-sleep");
        LockClient writers = LockClient.open(
                "memory://writer-sleep",
                LockOptions.builder().lease(Duration.ofMillis(500)).build(),
                backend -> new ForwardingLockBackend(backend) {
                    @Override
                    public AcquireResult tryAcquire(AcquireRequest request) {
                        AcquireResult r = super.tryAcquire(request);
                        // the readers' 30 s lease, uncapped
                        return r instanceof Held && request.hold().kind() == Hold.Kind.WRITE
                                ? Held.remaining(Duration.ofSeconds(30))
                                : r;
                    }
                });
        try (LockHandle reader = readers.readWriteLock("rw").readLock().acquire(Duration.ZERO)) {
            CompletableFuture<LockHandle> writer =
                    writers.readWriteLock("rw").writeLock().acquireAsync(Duration.ofSeconds(20));
            await().during(Duration.ofSeconds(3)) // six writer leases: its mark (1 s) must be refreshed
                    .atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        Optional<LockHandle> later =
                                readers.readWriteLock("rw").readLock().tryAcquire();
                        later.ifPresent(LockHandle::close);
                        return later.isEmpty();
                    });
            assertThat(writer)
                    .as("[memory] the writer still waits for the first reader")
                    .isNotDone();
            writer.cancel(true);
            assertThat(reader.isHeld()).isTrue();
        } finally {
            writers.close();
            readers.close();
        }
    }
}
