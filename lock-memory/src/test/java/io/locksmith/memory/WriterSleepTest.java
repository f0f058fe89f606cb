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
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * A core defect seen from a backend: a waiting writer with release signals sleeps for the
 * holder's remaining lease (capped at 10 s), which can outlast its waiting mark (twice its own
 * lease), so readers get in while it sleeps. Memory tells a writer at most its own lease, so it
 * does not show there; this test reports the readers' true remaining lease, as a backend that does
 * not cap it (Redis's PTTL of the key, say) would.
 */
class WriterSleepTest {

    @Test
    @Disabled("core: PollingAcquisition.pause() lets a WRITE waiter sleep past its mark (2 x its lease);"
            + " it should cap a writer's sleep below its lease. Reported to the lead; enable when fixed")
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
