package io.locksmith.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The health indicator over the in-memory backend, wrapped by a decorator whose renewals and status
 * reads the test makes fail, the way an unreachable backend fails them (the SPI's decorator hook
 * is the one way to make a real backend fail on cue).
 */
class LocksmithHealthIndicatorTest {

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(LocksmithAutoConfiguration.class, LocksmithActuatorAutoConfiguration.class))
            .withUserConfiguration(Flaky.class);

    /** The switch the decorator reads. */
    static final class Outage {
        volatile boolean renewals;
        volatile boolean reads;
    }

    @Configuration(proxyBeanMethods = false)
    static class Flaky {
        @Bean
        Outage outage() {
            return new Outage();
        }

        @Bean(destroyMethod = "close")
        LockClient flakyClient(Outage outage) {
            LockOptions options = LockOptions.builder()
                    .lease(Duration.ofSeconds(20))
                    .renewInterval(Duration.ofMillis(100))
                    .build();
            return LockClient.open("memory:", options, backend -> new Failing(backend, outage));
        }
    }

    static final class Failing extends ForwardingLockBackend {
        private final Outage outage;

        Failing(LockBackend delegate, Outage outage) {
            super(delegate);
            this.outage = outage;
        }

        @Override
        public List<RenewOutcome> renew(List<HeldLease> leases) {
            if (outage.renewals) {
                throw new LockBackendException("memory: renewals cut by the test");
            }
            return super.renew(leases);
        }

        @Override
        public Optional<LockInspector> inspector() {
            if (outage.reads) {
                throw new LockBackendException("memory: reads cut by the test");
            }
            return super.inspector();
        }
    }

    @Test
    void upWhileRenewalsKeepUpDownWhileTheyFailOrTheBackendCannotBeRead() {
        contexts.run(context -> {
            LocksmithHealthIndicator health = context.getBean(LocksmithHealthIndicator.class);
            Outage outage = context.getBean(Outage.class);
            assertThat(health.health(true).getStatus())
                    .as("[memory] health: up with nothing held")
                    .isEqualTo(Status.UP);

            try (LockHandle held = context.getBean(LockClient.class).lock("job").acquire(Duration.ofSeconds(5))) {
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(health.health(true).getDetails())
                                .as("[memory] health: renewals keep up")
                                .containsEntry("renewal", "keeping up"));

                outage.renewals = true;
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    Health h = health.health(true);
                    assertThat(h.getStatus())
                            .as("[memory] health: down while renewals fail: %s", h)
                            .isEqualTo(Status.DOWN);
                    assertThat((String) h.getDetails().get("renewal"))
                            .as("[memory] health: says renewals fail")
                            .startsWith("failing");
                });
                outage.renewals = false;
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(health.health(true).getStatus())
                                .as("[memory] health: up again once renewals succeed")
                                .isEqualTo(Status.UP));
                assertThat(held.isHeld())
                        .as("[memory] the lock outlived the short outage")
                        .isTrue();
            }

            outage.reads = true;
            Health unreachable = health.health(true);
            assertThat(unreachable.getStatus())
                    .as("[memory] health: down when the backend cannot be read: %s", unreachable)
                    .isEqualTo(Status.DOWN);
        });
    }
}
