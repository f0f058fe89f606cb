package io.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockBackendException;
import io.locksmith.LockHandle;
import io.locksmith.LockListener;
import io.locksmith.LockListener.AcquisitionEnded;
import io.locksmith.LockListener.Outcome;
import io.locksmith.LockOptions;
import io.locksmith.LockTimeoutException;
import io.locksmith.LossReason;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a client tells its {@link LockListener}s, on a {@link ManualClock}. */
class ListenerTest {

    private final TestBackend backend = new TestBackend();
    private final ManualClock clock = new ManualClock();
    private final DefaultLockClient client = DefaultLockClient.onClock(
            backend::attach,
            LockOptions.builder()
                    .lease(Duration.ofSeconds(3))
                    .backoffMin(Duration.ofMillis(5))
                    .backoffMax(Duration.ofMillis(20))
                    .build(),
            clock);
    private final Recorder recorder = new Recorder();

    /** Records every event with the thread it came on. */
    static final class Recorder implements LockListener {
        final List<Object> events = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();

        private void record(Object e) {
            events.add(e);
            threads.add(Thread.currentThread().getName());
        }

        @Override
        public void acquisitionStarted(AcquisitionStarted event) {
            record(event);
        }

        @Override
        public void acquisitionEnded(AcquisitionEnded event) {
            record(event);
        }

        @Override
        public void held(Hold event) {
            record(event);
        }

        @Override
        public void released(HoldEnded event) {
            record(event);
        }

        @Override
        public void lost(HoldEnded event) {
            record(event);
        }

        @Override
        public void renewed(Renewal event) {
            record(event);
        }

        List<Outcome> outcomes() {
            return events.stream()
                    .filter(AcquisitionEnded.class::isInstance)
                    .map(e -> ((AcquisitionEnded) e).outcome())
                    .toList();
        }

        <T> List<T> of(Class<T> type) {
            return events.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void anAcquisitionIsStartedEndedHeldAndReleased() {
        client.addListener(recorder);
        LockHandle h = client.lock("order:1").tryAcquire().orElseThrow();
        clock.advance(Duration.ofMillis(250));
        h.close();
        assertThat(recorder.events).hasSize(4);
        LockListener.AcquisitionStarted started = (LockListener.AcquisitionStarted) recorder.events.get(0);
        assertThat(started.lockName()).isEqualTo("order:1");
        assertThat(started.backend()).isEqualTo("test://backend");
        assertThat(started.maxWait()).isZero();
        AcquisitionEnded ended = (AcquisitionEnded) recorder.events.get(1);
        assertThat(ended.started()).isSameAs(started);
        assertThat(ended.outcome()).isEqualTo(Outcome.ACQUIRED);
        assertThat(ended.token()).isEqualTo(h.fencingToken());
        assertThat(((LockListener.Hold) recorder.events.get(2)).token()).isEqualTo(h.fencingToken());
        LockListener.HoldEnded released = (LockListener.HoldEnded) recorder.events.get(3);
        assertThat(released.reason()).isNull();
        assertThat(released.heldFor()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void everyEndIsTold() throws Exception {
        client.addListener(recorder);
        LockHandle holder = client.lock("a").tryAcquire().orElseThrow();
        assertThat(client.lock("a").tryAcquire()).isEmpty();
        CompletableFuture<LockHandle> timed =
                CompletableFuture.supplyAsync(() -> client.lock("a").acquire(Duration.ofMillis(100)));
        await().atMost(Duration.ofSeconds(10)).until(() -> clock.pending() >= 2);
        for (int i = 0; i < 25; i++) {
            clock.advance(Duration.ofMillis(5));
            await().atMost(Duration.ofSeconds(10)).until(client::workersIdle);
        }
        assertThatThrownBy(() -> timed.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(LockTimeoutException.class);
        CompletableFuture<LockHandle> cancelled = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        cancelled.cancel(false);
        backend.failing = true;
        assertThatThrownBy(() -> client.lock("b").tryAcquire()).isInstanceOf(LockBackendException.class);
        backend.failing = false;
        CompletableFuture<LockHandle> closedOn = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> clock.pending() >= 3 && client.workersIdle());
        holder.close();
        client.close();
        assertThatThrownBy(() -> closedOn.get(10, TimeUnit.SECONDS)).hasMessageContaining("closed");
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.outcomes().size() == 6);
        assertThat(recorder.outcomes())
                .containsExactly(
                        Outcome.ACQUIRED,
                        Outcome.BUSY,
                        Outcome.TIMEOUT,
                        Outcome.CANCELLED,
                        Outcome.ERROR,
                        Outcome.CLOSED);
        assertThat(recorder.of(LockListener.AcquisitionStarted.class))
                .as("each start has one end")
                .hasSize(6);
    }

    @Test
    void aLossAndARenewalAreToldOnAWorker() {
        client.addListener(recorder);
        LockHandle h = client.lock("a").tryAcquire().orElseThrow();
        clock.advance(Duration.ofSeconds(1)); // the first renewal, a third of the lease in
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !recorder.of(LockListener.Renewal.class).isEmpty());
        LockListener.Renewal renewal = recorder.of(LockListener.Renewal.class).get(0);
        assertThat(renewal.leases()).isEqualTo(1);
        assertThat(renewal.renewed()).isEqualTo(1);
        backend.failing = true;
        for (int i = 0; i < 40; i++) {
            clock.advance(Duration.ofMillis(100));
            await().atMost(Duration.ofSeconds(10)).until(client::workersIdle);
        }
        assertThat(h.isHeld()).isFalse();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !recorder.of(LockListener.HoldEnded.class).isEmpty());
        LockListener.HoldEnded lost = recorder.of(LockListener.HoldEnded.class).get(0);
        assertThat(lost.reason()).isEqualTo(LossReason.LEASE_EXPIRED);
        int at = recorder.events.indexOf(lost);
        assertThat(recorder.threads.get(at))
                .as("a loss found by the timer is told on a worker")
                .contains("-worker-");
        assertThat(recorder.of(LockListener.Renewal.class)).anyMatch(r -> r.failed() == 1);
        h.close();
        assertThat(recorder.of(LockListener.HoldEnded.class))
                .as("a lost hold is not also released")
                .hasSize(1);
    }

    @Test
    void aListenerThatThrowsSpoilsNoOtherAndARemovedOneHearsNothing() {
        client.addListener(new LockListener() {
            @Override
            public void acquisitionStarted(AcquisitionStarted event) {
                throw new IllegalStateException("a broken listener");
            }
        });
        LockListener.Registration registration = client.addListener(recorder);
        client.lock("a").tryAcquire().orElseThrow().close();
        assertThat(recorder.events).hasSize(4);
        registration.close();
        client.lock("a").tryAcquire().orElseThrow().close();
        assertThat(recorder.events)
                .as("nothing after the registration was closed")
                .hasSize(4);
    }
}
