package io.locksmith.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.api.sync.BaseRedisCommands;
import io.lettuce.core.api.sync.RedisKeyCommands;
import io.lettuce.core.api.sync.RedisStringCommands;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One client's connections to Redis, standalone (also through Sentinel) or Cluster: a command
 * connection for the scripts and a pub/sub connection, opened on first wait, for release signals.
 */
final class RedisLink implements AutoCloseable {

    private final StatefulConnection<String, String> connection;
    private final RedisScriptingCommands<String, String> scripts;
    private final RedisScriptingAsyncCommands<String, String> asyncScripts;
    private final BaseRedisCommands<String, String> base;
    private final Supplier<StatefulRedisPubSubConnection<String, String>> pubSubFactory;
    private final Runnable shutdown;
    private final boolean cluster;

    /** Through {@link #standalone} or {@link #cluster}; tests build a link that batches by slot on one server. */
    RedisLink(StatefulConnection<String, String> connection, RedisScriptingCommands<String, String> scripts,
            RedisScriptingAsyncCommands<String, String> asyncScripts, BaseRedisCommands<String, String> base, Supplier<StatefulRedisPubSubConnection<String, String>> pubSub,
            Runnable shutdown, boolean cluster) {
        this.connection = connection;
        this.scripts = scripts;
        this.asyncScripts = asyncScripts;
        this.base = base;
        this.pubSubFactory = pubSub;
        this.shutdown = shutdown;
        this.cluster = cluster;
    }

    /** Connects through a standalone or Sentinel client; shuts the client down on close if {@code owned}. */
    static RedisLink standalone(RedisClient client, boolean owned) {
        StatefulRedisConnection<String, String> c = client.connect();
        return new RedisLink(c, c.sync(), c.async(), c.sync(), client::connectPubSub, owned ? client::shutdown : () -> {}, false);
    }

    /** Connects through a Cluster client; shuts the client down on close if {@code owned}. */
    static RedisLink cluster(RedisClusterClient client, boolean owned) {
        StatefulRedisClusterConnection<String, String> c = client.connect();
        connectToEveryShard(c);
        return new RedisLink(c, c.sync(), c.async(), c.sync(), client::connectPubSub, owned ? client::shutdown : () -> {}, true);
    }

    /**
     * Lettuce opens a Cluster's node connections on first use, and with REJECT_COMMANDS it rejects
     * a command that would wait for one ("Currently not connected"): every shard's first call would
     * fail. So the connections to all masters open now, together; one that cannot open (a shard
     * down) is left to Lettuce's reconnects and fails its calls until then, as a shard that goes
     * down later does. Waits at most the connect timeout.
     */
    private static void connectToEveryShard(StatefulRedisClusterConnection<String, String> c) {
        List<CompletableFuture<?>> opening = new ArrayList<>();
        for (RedisClusterNode node : c.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
                // by address: Lettuce keys the connections it routes slots to by host and port
                opening.add(c.getConnectionAsync(node.getUri().getHost(), node.getUri().getPort())
                        .handle((connection, failure) -> null));
            }
        }
        CompletableFuture.allOf(opening.toArray(CompletableFuture[]::new)).join();
    }

    RedisScriptingCommands<String, String> scripts() {
        return scripts;
    }

    /** The same scripting commands without waiting, for calls sent together (a Cluster's renewal per slot). */
    RedisScriptingAsyncCommands<String, String> asyncScripts() {
        return asyncScripts;
    }

    /** @return the bound on every command of this connection */
    Duration timeout() {
        return connection.getTimeout();
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
