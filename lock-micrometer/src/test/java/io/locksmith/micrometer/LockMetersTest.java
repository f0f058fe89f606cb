package io.locksmith.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The meters of a real (in-memory) client, read back from the registry. */
class LockMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LockClient client = LockClient.open(
            "memory:",
            LockOptions.builder()
                    .lease(Duration.ofSeconds(3))
                    .backoffMin(Duration.ofMillis(5))
                    .backoffMax(Duration.ofMillis(20))
                    .build());

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void anAcquisitionIsTimedByOutcomeAndAHoldIsALongTask() {
        LockMeters.builder(registry).build().bindTo(client);
        LockHandle h = client.lock("order:1").tryAcquire().orElseThrow();
        assertThat(client.lock("order:1").tryAcquire()).isEmpty();
        LongTaskTimer held = registry.get("locksmith.held").longTaskTimer();
        assertThat(held.activeTasks()).as("one hold in progress").isEqualTo(1);
        h.close();
        assertThat(held.activeTasks()).isZero();
        Timer acquired = registry.get("locksmith.acquire")
                .tag("outcome", "acquired")
                .tag("kind", "lock")
                .timer();
        assertThat(acquired.count()).isEqualTo(1);
        assertThat(registry.get("locksmith.acquire")
                        .tag("outcome", "busy")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.getMeters())
                .as("no lock-name tag by default")
                .allSatisfy(m -> assertThat(m.getId().getTag("lock")).isNull());
        assertThat(acquired.getId().getTag("backend")).isEqualTo(client.backend());
    }

    @Test
    void waitersAreCountedWhileTheyWaitAndATimeoutIsAnOutcome() throws Exception {
        LockMeters.builder(registry).build().bindTo(client);
        LockHandle holder = client.lock("a").tryAcquire().orElseThrow();
        CompletableFuture<LockHandle> waiter = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> registry.get("locksmith.waiting").gauge().value() == 1);
        holder.close();
        waiter.get(10, TimeUnit.SECONDS).close();
        assertThat(registry.get("locksmith.waiting").gauge().value()).isZero();
        LockHandle again = client.lock("a").tryAcquire().orElseThrow();
        assertThat(client.lock("a").tryAcquire(Duration.ofMillis(50))).isEmpty();
        again.close();
        assertThat(registry.get("locksmith.acquire")
                        .tag("outcome", "timeout")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void aLossIsCountedByReasonAndEndsTheHold() {
        LockMeters.builder(registry).build().bindTo(client);
        LockHandle h = client.lock("a")
                .withLease(Duration.ofMillis(200))
                .withAutoRenew(false)
                .tryAcquire()
                .orElseThrow();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !registry.find("locksmith.lost").counters().isEmpty());
        assertThat(registry.get("locksmith.lost")
                        .tag("reason", "lease_expired")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("locksmith.held").longTaskTimer().activeTasks()).isZero();
        h.close();
    }

    @Test
    void renewalBatchesAreTimedAndTheirLeasesCounted() {
        LockMeters.builder(registry).build().bindTo(client);
        LockHandle h =
                client.lock("a").withLease(Duration.ofMillis(600)).tryAcquire().orElseThrow();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !registry.find("locksmith.renew").timers().isEmpty()
                        && registry.get("locksmith.renew").timer().count() >= 2);
        assertThat(registry.get("locksmith.renew.leases")
                        .tag("outcome", "renewed")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(2);
        h.close();
    }

    @Test
    void aNameTagPolicyKeepsTheFixedPartOfTheName() {
        LockMeters.builder(registry).nameTag(NameTag.upTo(':')).build().bindTo(client);
        client.lock("order:81723").tryAcquire().orElseThrow().close();
        client.lock("order:81724").tryAcquire().orElseThrow().close();
        client.lock("nightly-report").tryAcquire().orElseThrow().close();
        assertThat(registry.get("locksmith.acquire")
                        .tag("lock", "order:")
                        .timer()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get("locksmith.acquire")
                        .tag("lock", "other")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.find("locksmith.acquire").timers())
                .as("two tag values, not one per order")
                .hasSize(2);
    }

    @Test
    void withObservationsAnAcquisitionIsObservedWithItsOutcomeAndName() {
        TestObservationRegistry observations = TestObservationRegistry.create();
        LockMeters.builder(registry).observations(observations).build().bindTo(client);
        client.lock("order:1").tryAcquire().orElseThrow().close();
        TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo("locksmith.acquire")
                .that()
                .hasBeenStarted()
                .hasBeenStopped()
                .hasLowCardinalityKeyValue("outcome", "acquired")
                .hasLowCardinalityKeyValue("kind", "lock")
                .hasHighCardinalityKeyValue("lock.name", "order:1");
        assertThat(registry.find("locksmith.acquire").meters())
                .as("the timer comes from the observation handler")
                .extracting(Meter::getId)
                .isEmpty();
    }

    @Test
    void closingTheRegistrationStopsTheMetering() {
        var registration = LockMeters.builder(registry).build().bindTo(client);
        registration.close();
        client.lock("a").tryAcquire().orElseThrow().close();
        assertThat(registry.getMeters()).isEmpty();
    }
}
