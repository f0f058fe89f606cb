package io.locksmith.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import java.util.Objects;

/**
 * Lock clients over a Lettuce client the application already has. The lock client opens its own
 * connections from it and closes them when closed; the Lettuce client stays open.
 *
 * <pre>{@code
 * RedisClient redis = RedisClient.create("redis://cache:6379");
 * try (LockClient locks = RedisLocks.open(redis, LockOptions.defaults())) { ... }
 * }</pre>
 */
public final class RedisLocks {

    private RedisLocks() {}

    /**
     * @param client a standalone or Sentinel Lettuce client; its URI's timeout bounds every call
     * @param options the lock options
     * @return a lock client on its own connections
     */
    public static LockClient open(RedisClient client, LockOptions options) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(options, "options");
        return LockClient.of(
                context -> RedisLockProvider.connect(
                        () -> RedisLink.standalone(client, false),
                        () -> {},
                        "redis (existing client)",
                        RedisSettings.DEFAULTS.with(context.lockOptions()),
                        context),
                options);
    }

    /**
     * @param client a Lettuce Cluster client
     * @param options the lock options
     * @return a lock client on its own connections
     */
    public static LockClient open(RedisClusterClient client, LockOptions options) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(options, "options");
        return LockClient.of(
                context -> RedisLockProvider.connect(
                        () -> RedisLink.cluster(client, false),
                        () -> {},
                        "redis-cluster (existing client)",
                        RedisSettings.DEFAULTS.with(context.lockOptions()),
                        context),
                options);
    }
}
