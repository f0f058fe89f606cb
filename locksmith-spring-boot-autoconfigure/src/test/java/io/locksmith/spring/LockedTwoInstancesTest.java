package io.locksmith.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.spring.Locked.WhenBusy;
import io.locksmith.spring.boot.autoconfigure.LocksEndpoint;
import io.locksmith.spring.boot.autoconfigure.LocksmithHealthIndicator;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/**
 * Two instances of one application, each a Spring Boot context, contend on {@code @Locked} methods
 * through one H2 database (lock-jdbc): busy locks are skipped, refused or waited for as each method
 * says, and the locks endpoint and the health indicator show what each instance holds and awaits.
 */
class LockedTwoInstancesTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Reports.class)
    static class ReportsApp {}

    /** A job that holds its lock until the test opens the gate. Reached through its proxy: no fields. */
    static class Reports {
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch gate = new CountDownLatch(1);

        public boolean awaitEntered() throws InterruptedException {
            return entered.await(BOUND.toSeconds(), TimeUnit.SECONDS);
        }

        public void openGate() {
            gate.countDown();
        }

        @Locked(name = "report:#{#day}", whenBusy = WhenBusy.SKIP)
        public String held(String day) throws InterruptedException {
            entered.countDown();
            gate.await(30, TimeUnit.SECONDS);
            return "token " + LockContext.current().fencingToken();
        }

        @Locked(name = "report:#{#day}", whenBusy = WhenBusy.SKIP)
        public String skipped(String day) {
            return "ran";
        }

        @Locked(name = "report:#{#p0}", whenBusy = WhenBusy.SKIP)
        public Optional<String> skippedOptional(String day) {
            return Optional.of("ran");
        }

        @Locked(name = "report:#{#day}", whenBusy = WhenBusy.THROW)
        public String refused(String day) {
            return "ran";
        }

        @Locked(name = "report:#{#day}", waitFor = "${reports.wait}")
        public long waited(String day) {
            return LockContext.current().fencingToken();
        }
    }

    @Test
    void aSecondInstanceSkipsRefusesOrWaitsAsTheMethodSays() throws Exception {
        String uri = "jdbc:h2:mem:reports-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
        try (Instances instances = new Instances()) {
            ConfigurableApplicationContext a = instances.start(
                    ReportsApp.class,
                    "locksmith.uri=" + uri,
                    "reports.wait=30s",
                    "management.endpoints.web.exposure.include=health,locks",
                    "management.endpoint.health.probes.enabled=true");
            ConfigurableApplicationContext b = instances.start(
                    ReportsApp.class,
                    "locksmith.uri=" + uri,
                    "reports.wait=30s",
                    "management.endpoints.web.exposure.include=health,locks",
                    "management.endpoint.health.probes.enabled=true");
            Reports reportsA = a.getBean(Reports.class);
            Reports reportsB = b.getBean(Reports.class);

            CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> call(() -> reportsA.held("mon")));
            assertThat(reportsA.awaitEntered())
                    .as("[jdbc/h2] @Locked: instance A should enter its method")
                    .isTrue();

            assertThat(reportsB.skipped("mon"))
                    .as("[jdbc/h2] SKIP: a busy lock skips the method, returning null")
                    .isNull();
            assertThat(reportsB.skippedOptional("mon"))
                    .as("[jdbc/h2] SKIP: a busy lock skips a method returning Optional with Optional.empty()")
                    .isEmpty();
            assertThatThrownBy(() -> reportsB.refused("mon"))
                    .as("[jdbc/h2] THROW: a busy lock throws LockBusyException naming the lock")
                    .isInstanceOf(LockBusyException.class)
                    .hasMessageContaining("'report:mon'")
                    .hasMessageContaining("Reports.refused");
            assertThat(reportsB.skipped("tue"))
                    .as("[jdbc/h2] @Locked: another name is another lock")
                    .isEqualTo("ran");

            LocksEndpoint.Locks heldByA = a.getBean(LocksEndpoint.class).locks();
            assertThat(heldByA.held())
                    .as("[jdbc/h2] locks endpoint: instance A lists the lock it holds")
                    .singleElement()
                    .satisfies(h -> {
                        assertThat(h.name()).isEqualTo("report:mon");
                        assertThat(h.leaseLeftMillis()).as("lease left").isPositive();
                        assertThat(h.heldSince()).as("held since").isNotNull();
                    });
            assertThat(b.getBean(LocksEndpoint.class).locks().held())
                    .as("[jdbc/h2] locks endpoint: instance B holds nothing once its calls returned")
                    .isEmpty();
            Health health = a.getBean(LocksmithHealthIndicator.class).health(true);
            assertThat(health.getStatus())
                    .as("[jdbc/h2] health: the backend answers, so it is up: %s", health)
                    .isEqualTo(Status.UP);
            assertThat(health.getDetails())
                    .as("[jdbc/h2] health: details name the backend and the holds")
                    .containsEntry("held", 1)
                    .containsKey("backend");
            HealthEndpointGroups groups = a.getBean(HealthEndpointGroups.class);
            assertThat(groups.getPrimary().isMember("locksmith"))
                    .as("[jdbc/h2] health: in the health endpoint")
                    .isTrue();
            assertThat(groups.get("liveness").isMember("locksmith"))
                    .as("[jdbc/h2] health: not in the liveness group, a backend outage is no reason to restart")
                    .isFalse();

            CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> reportsB.waited("mon"));
            LocksEndpoint endpointB = b.getBean(LocksEndpoint.class);
            await().atMost(BOUND)
                    .untilAsserted(() -> assertThat(endpointB.locks().waiting())
                            .as("[jdbc/h2] locks endpoint: instance B lists its waiting call")
                            .extracting(LocksEndpoint.Waiting::name)
                            .containsExactly("report:mon"));
            assertThat(second)
                    .as("[jdbc/h2] WAIT: B waits while A holds the lock")
                    .isNotDone();

            reportsA.openGate();
            String firstResult = first.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            long tokenA = Long.parseLong(firstResult.substring("token ".length()));
            long tokenB = second.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertThat(tokenB)
                    .as("[jdbc/h2] WAIT: B gets the lock once A's method returned, with a later fencing token")
                    .isGreaterThan(tokenA);
            assertThat(heldByA.backend())
                    .as("[jdbc/h2] locks endpoint: the backend's description")
                    .startsWith("jdbc:h2:");
            assertThat(a.getBean(LocksEndpoint.class).locks().held())
                    .as("[jdbc/h2] locks endpoint: A holds nothing after its method returned")
                    .isEmpty();
        }
    }

    private interface Call<T> {
        T call() throws Exception;
    }

    private static <T> T call(Call<T> call) {
        try {
            return call.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
