package io.locksmith.spring.boot.autoconfigure;

import io.locksmith.micrometer.LockMeters;
import io.locksmith.micrometer.NameTag;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * lock-micrometer's meters for the application's lock clients, where lock-micrometer is on the
 * class path and the application has a {@link MeterRegistry} (Spring Boot's metrics, or its own):
 * a {@link LockMeters} bean, which {@link LockListenerRegistrar} registers on every client like any
 * listener bean. With an {@link ObservationRegistry}, acquisitions are observations too (spans
 * through a tracing bridge). {@code locksmith.metrics.enabled=false} turns it off.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"
        })
@ConditionalOnClass({LockMeters.class, MeterRegistry.class})
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnProperty(name = "locksmith.metrics.enabled", matchIfMissing = true)
public class LocksmithMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockMeters lockMeters(
            MeterRegistry registry, ObjectProvider<ObservationRegistry> observations, LocksmithProperties properties) {
        NameTag nameTag = switch (properties.getMetrics().getLockNameTag()) {
            case NONE -> NameTag.none();
            case PREFIX -> NameTag.upTo(':');
            case WHOLE -> NameTag.whole();
        };
        return LockMeters.builder(registry)
                .observations(observations.getIfAvailable())
                .nameTag(nameTag)
                .build();
    }
}
