package io.locksmith.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.LockClient;
import io.locksmith.micrometer.LockMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** lock-micrometer's meters in a Spring context with a MeterRegistry, read back from the registry. */
class LocksmithMetricsTest {

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(LocksmithAutoConfiguration.class, LocksmithMetricsAutoConfiguration.class))
            .withPropertyValues("locksmith.uri=memory:");

    @Configuration(proxyBeanMethods = false)
    static class Registry {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Observations {
        @Bean
        TestObservationRegistry observationRegistry() {
            return TestObservationRegistry.create();
        }
    }

    @Test
    void withAMeterRegistryTheClientsLocksAreMeteredOnce() {
        contexts.withUserConfiguration(Registry.class).run(context -> {
            assertThat(context).hasSingleBean(LockMeters.class);
            context.getBean(LockClient.class)
                    .lock("order:1")
                    .tryAcquire()
                    .orElseThrow()
                    .close();
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("locksmith.acquire")
                            .tag("outcome", "acquired")
                            .timer()
                            .count())
                    .as("one acquisition, counted once (the listener is registered once)")
                    .isEqualTo(1);
            assertThat(registry.get("locksmith.held").longTaskTimer().activeTasks())
                    .isZero();
        });
    }

    @Test
    void theLockNameTagFollowsTheProperty() {
        contexts.withUserConfiguration(Registry.class)
                .withPropertyValues("locksmith.metrics.lock-name-tag=prefix")
                .run(context -> {
                    context.getBean(LockClient.class)
                            .lock("order:81723")
                            .tryAcquire()
                            .orElseThrow()
                            .close();
                    assertThat(context.getBean(MeterRegistry.class)
                                    .get("locksmith.acquire")
                                    .tag("lock", "order:")
                                    .timer()
                                    .count())
                            .isEqualTo(1);
                });
    }

    @Test
    void withAnObservationRegistryAcquisitionsAreObserved() {
        contexts.withUserConfiguration(Registry.class, Observations.class).run(context -> {
            context.getBean(LockClient.class)
                    .lock("order:1")
                    .tryAcquire()
                    .orElseThrow()
                    .close();
            TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
                    .hasObservationWithNameEqualTo("locksmith.acquire")
                    .that()
                    .hasBeenStopped()
                    .hasLowCardinalityKeyValue("outcome", "acquired");
        });
    }

    @Test
    void withoutAMeterRegistryOrWhenDisabledThereAreNoMeters() {
        contexts.run(context -> assertThat(context).doesNotHaveBean(LockMeters.class));
        contexts.withUserConfiguration(Registry.class)
                .withPropertyValues("locksmith.metrics.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(LockMeters.class));
    }
}
