package io.locksmith.redis;

import io.locksmith.spi.BackendContext;
import java.time.Duration;

/**
 * The Redis backend's own options.
 *
 * @param timeout the command and connect timeout
 * @param replicas how many replicas must acknowledge an acquisition (Redis WAIT); 0 for none
 * @param replicaTimeout how long to wait for them
 */
record RedisSettings(Duration timeout, int replicas, Duration replicaTimeout) {

    static final RedisSettings DEFAULTS = new RedisSettings(Duration.ofSeconds(5), 0, Duration.ofSeconds(1));

    static RedisSettings of(BackendContext context) {
        return new RedisSettings(
                context.durationOption("timeout", DEFAULTS.timeout()),
                context.intOption("replicas", DEFAULTS.replicas(), 0),
                context.durationOption("replica-timeout", DEFAULTS.replicaTimeout()));
    }
}
