package io.locksmith.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.BaseRedisCommands;
import io.lettuce.core.api.sync.RedisKeyCommands;
import io.lettuce.core.api.sync.RedisStringCommands;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.function.Supplier;

/**
 * One client's connections to Redis, standalone (also through Sentinel) or Cluster: a command
 * connection for the scripts and a pub/sub connection, opened on first wait, for release signals.
 */
final class RedisLink implements AutoCloseable {

    private final StatefulConnection<String, String> connection;
    private final RedisScriptingCommands<String, String> scripts;
    private final BaseRedisCommands<String, String> base;
    private final Supplier<StatefulRedisPubSubConnection<String, String>> pubSubFactory;
    private final Runnable shutdown;
    private final boolean cluster;

    /** Through {@link #standalone} or {@link #cluster}; tests build a link that batches by slot on one server. */
    RedisLink(StatefulConnection<String, String> connection, RedisScriptingCommands<String, String> scripts,
            BaseRedisCommands<String, String> base, Supplier<StatefulRedisPubSubConnection<String, String>> pubSub,
            Runnable shutdown, boolean cluster) {
        this.connection = connection;
        this.scripts = scripts;
        this.base = base;
        this.pubSubFactory = pubSub;
        this.shutdown = shutdown;
        this.cluster = cluster;
    }

    /** Connects through a standalone or Sentinel client; shuts the client down on close if {@code owned}. */
    static RedisLink standalone(RedisClient client, boolean owned) {
        StatefulRedisConnection<String, String> c = client.connect();
        return new RedisLink(c, c.sync(), c.sync(), client::connectPubSub, owned ? client::shutdown : () -> {}, false);
    }

    /** Connects through a Cluster client; shuts the client down on close if {@code owned}. */
    static RedisLink cluster(RedisClusterClient client, boolean owned) {
        StatefulRedisClusterConnection<String, String> c = client.connect();
        return new RedisLink(c, c.sync(), c.sync(), client::connectPubSub, owned ? client::shutdown : () -> {}, true);
    }

    RedisScriptingCommands<String, String> scripts() {
        return scripts;
    }

    // the standalone and the Cluster sync APIs both implement the string and key commands
    String get(String key) {
        return ((RedisStringCommands<String, String>) base).get(key);
    }

    Long pttl(String key) {
        return ((RedisKeyCommands<String, String>) base).pttl(key);
    }

    /** @return how many replicas acknowledged the writes so far (Redis WAIT) */
    long waitForReplicas(int replicas, long timeoutMillis) {
        return base.waitForReplication(replicas, timeoutMillis);
    }

    StatefulRedisPubSubConnection<String, String> openPubSub() {
        return pubSubFactory.get();
    }

    boolean cluster() {
        return cluster;
    }

    /** Stops sending commands (they queue and time out) or resumes; how tests cut a client off. */
    void stall(boolean stalled) {
        connection.setAutoFlushCommands(!stalled);
        if (!stalled) {
            connection.flushCommands();
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } finally {
            shutdown.run();
        }
    }
}
