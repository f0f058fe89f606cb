package io.locksmith.spring.boot.autoconfigure;

import io.locksmith.LockClient;
import io.locksmith.spring.LockActivity;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The actuator's parts, each only where the application has the actuator: the {@code locksmith}
 * health indicator ({@code management.health.locksmith.enabled}) and the {@code locks} endpoint
 * (exposed like any endpoint, {@code management.endpoints.web.exposure.include=locks}).
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class)
@ConditionalOnBean(LockClient.class)
public class LocksmithActuatorAutoConfiguration {

    /** The health indicator, with Spring Boot's health module. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("locksmith")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "locksmithHealthIndicator")
        LocksmithHealthIndicator locksmithHealthIndicator(
                LockClient client, LockActivity activity, LocksmithProperties properties) {
            return new LocksmithHealthIndicator(client, activity, properties.getHealthProbeName());
        }
    }

    /** The endpoint, with the actuator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
    static class LocksEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint
        LocksEndpoint locksEndpoint(LockClient client, LockActivity activity) {
            return new LocksEndpoint(client, activity);
        }
    }
}
