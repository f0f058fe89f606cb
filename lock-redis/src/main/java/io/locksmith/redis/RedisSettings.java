package io.locksmith.redis;

import io.locksmith.LockConfigurationException;
import io.locksmith.LockOptions;
import io.locksmith.spi.BackendConfig;
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

    static RedisSettings of(BackendConfig config) {
        Duration timeout = config.option("timeout").map(v -> duration(config, "timeout", v)).orElse(DEFAULTS.timeout());
        int replicas = config.option("replicas").map(v -> integer(config, "replicas", v)).orElse(0);
        Duration replicaTimeout = config.option("replica-timeout").map(v -> duration(config, "replica-timeout", v))
                .orElse(DEFAULTS.replicaTimeout());
        return new RedisSettings(timeout, replicas, replicaTimeout);
    }

    private static Duration duration(BackendConfig config, String name, String value) {
        try {
            // the same duration syntax as every other option
            return LockOptions.builder().set("lease", value).build().lease();
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException("option '" + name + "' of " + config.redactedLocation()
                    + " must be a positive duration such as 500ms or 5s, was '" + value + "'");
        }
    }

    static int integer(BackendConfig config, String name, String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new LockConfigurationException("option '" + name + "' of " + config.redactedLocation()
                    + " must be a whole number of 0 or more, was '" + value + "'");
        }
    }
}
