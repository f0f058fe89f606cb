package io.locksmith.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.api.sync.BaseRedisCommands;
import io.lettuce.core.api.sync.RedisKeyCommands;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.api.sync.RedisStringCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One client's connections to Redis, standalone (also through Sentinel) or Cluster: a command
 * connection for the scripts and a pub/sub connection, opened on first wait, for release signals.
 *
 * <p>On a Cluster, a call that fails without an answer from the server (refused for want of a
 * connection, or timed out) may mean that a master died and the cluster replaced it: the link
 * then re-reads the cluster's layout at once ({@link #failed}) and opens its connections to the
 * masters in it. Lettuce refreshes by itself as well, but only after several failed reconnects and
 * at most every 5 s, which left a client sending a failed-over slot's calls to the dead master
 * for several seconds after the cluster had recovered: long enough for a short lease to run out,
 * and for a release to be lost (the lock then stayed taken for the rest of its lease). At most one
 * refresh runs at a time, and at most one starts per second.
 */
final class RedisLink implements AutoCloseable {

    private static final long REFRESH_SPACING_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final StatefulConnection<String, String> connection;
    private final RedisScriptingCommands<String, String> scripts;
    private final RedisScriptingAsyncCommands<String, String> asyncScripts;
    private final BaseRedisCommands<String, String> base;
    private final Supplier<StatefulRedisPubSubConnection<String, String>> pubSubFactory;
    private final Runnable shutdown;
    private final boolean cluster;
    private final Supplier<CompletableFuture<Void>> layout; // re-reads a Cluster's layout; null otherwise
    private final Object refreshing = new Object();
    private CompletableFuture<Void> refresh = DONE; // guarded by refreshing
    private long refreshStarted; // guarded by refreshing; System.nanoTime(): spaces network calls, no lease

    /** Through {@link #standalone} or {@link #cluster}; tests build a link that batches by slot on one server. */
    RedisLink(
            StatefulConnection<String, String> connection,
            RedisScriptingCommands<String, String> scripts,
            RedisScriptingAsyncCommands<String, String> asyncScripts,
            BaseRedisCommands<String, String> base,
            Supplier<StatefulRedisPubSubConnection<String, String>> pubSub,
            Runnable shutdown,
            boolean cluster) {
        this(connection, scripts, asyncScripts, base, pubSub, shutdown, cluster, null);
    }

    private RedisLink(
            StatefulConnection<String, String> connection,
            RedisScriptingCommands<String, String> scripts,
            RedisScriptingAsyncCommands<String, String> asyncScripts,
            BaseRedisCommands<String, String> base,
            Supplier<StatefulRedisPubSubConnection<String, String>> pubSub,
            Runnable shutdown,
            boolean cluster,
            Supplier<CompletableFuture<Void>> layout) {
        this.connection = connection;
        this.scripts = scripts;
        this.asyncScripts = asyncScripts;
        this.base = base;
        this.pubSubFactory = pubSub;
        this.shutdown = shutdown;
        this.cluster = cluster;
        this.layout = layout;
    }

    /** Connects through a standalone or Sentinel client; shuts the client down on close if {@code owned}. */
    static RedisLink standalone(RedisClient client, boolean owned) {
        StatefulRedisConnection<String, String> c = client.connect();
        return new RedisLink(
                c, c.sync(), c.async(), c.sync(), client::connectPubSub, owned ? client::shutdown : () -> {}, false);
    }

    /** Connects through a Cluster client; shuts the client down on close if {@code owned}. */
    static RedisLink cluster(RedisClusterClient client, boolean owned) {
        StatefulRedisClusterConnection<String, String> c = client.connect();
        connectToEveryShard(c).join();
        Supplier<CompletableFuture<Void>> layout = () ->
                client.refreshPartitionsAsync().toCompletableFuture().thenCompose(refreshed -> connectToEveryShard(c));
        return new RedisLink(
                c,
                c.sync(),
                c.async(),
                c.sync(),
                client::connectPubSub,
                owned ? client::shutdown : () -> {},
                true,
                layout);
    }

    /**
     * Lettuce opens a Cluster's node connections on first use, and with REJECT_COMMANDS it rejects
     * a command that would wait for one ("Currently not connected"): every shard's first call would
     * fail. So the connections to all masters open now, together; one that cannot open (a shard
     * down) is left to Lettuce's reconnects and fails its calls until then, as a shard that goes
     * down later does. Completes within the connect timeout, also when some cannot open.
     */
    private static CompletableFuture<Void> connectToEveryShard(StatefulRedisClusterConnection<String, String> c) {
        List<CompletableFuture<?>> opening = new ArrayList<>();
        for (RedisClusterNode node : c.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
                // by address: Lettuce keys the connections it routes slots to by host and port
                opening.add(c.getConnectionAsync(
                                node.getUri().getHost(), node.getUri().getPort())
                        .handle((connection, failure) -> null));
            }
        }
        return CompletableFuture.allOf(opening.toArray(CompletableFuture[]::new));
    }

    /**
     * Tells the link that a call failed; on a Cluster, a failure without an answer from the
     * server starts a refresh of the layout (see the type's comment).
     *
     * @return completes once that refresh is done; at once if none was needed or one started less than a second ago
     */
    CompletableFuture<Void> failed(RedisException e) {
        if (layout == null || e instanceof RedisCommandExecutionException) {
            return DONE; // the server answered: it is there
        }
        synchronized (refreshing) {
            long now = System.nanoTime();
            if (refresh.isDone() && (refreshStarted == 0 || now - refreshStarted >= REFRESH_SPACING_NANOS)) {
                refreshStarted = now;
                refresh = layout.get()
                        .handle((done, failure) -> null); // a refresh that fails is retried on the next failure
            }
            return refresh;
        }
    }

    /**
     * Re-reads a Cluster's layout now, after any refresh already running: one that started before
     * the caller's failure may have read the layout before the cluster changed it.
     *
     * @return completes once the new refresh is done; at once on a standalone server
     */
    CompletableFuture<Void> refreshNow() {
        if (layout == null) {
            return DONE;
        }
        synchronized (refreshing) {
            refreshStarted = System.nanoTime();
            refresh = refresh.thenCompose(previous -> layout.get()).handle((done, failure) -> null);
            return refresh;
        }
    }

    /**
     * Whether a call was refused for want of a connection, without reaching a server: on a Cluster
     * it can be repeated once {@link #refreshNow} has found where the slot lives now. A timed-out call
     * may have run, and its server may be only slow.
     */
    static boolean refused(RedisException e) {
        return !(e instanceof RedisCommandExecutionException) && !(e instanceof RedisCommandTimeoutException);
    }

    /** @return whether a Cluster refused a multi-key call because its slot migrates and the keys are split */
    static boolean slotMoving(RedisCommandExecutionException e) {
        return e.getMessage() != null && e.getMessage().startsWith("TRYAGAIN");
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

    @Override
    public void close() {
        try {
            connection.close();
        } finally {
            shutdown.run();
        }
    }
}
