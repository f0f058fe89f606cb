package io.locksmith.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import io.locksmith.spi.Redaction;
import java.util.Locale;
import java.util.Set;

/**
 * Opens Redis URIs: {@code redis://[user:password@]host:6379[/db]}, {@code rediss://} (TLS),
 * {@code redis-sentinel://host1,host2/db#master}, and {@code redis-cluster://host1:p1,host2:p2}.
 *
 * <p>Options: {@code timeout} (per command and for connecting; default 5s), {@code replicas}
 * (wait for this many replicas to acknowledge each acquisition; default 0),
 * {@code replica-timeout} (default 1s), and Lettuce's {@code database}, {@code clientName},
 * {@code sentinelMasterId}, {@code verifyPeer} ({@code true} or {@code false}).
 */
public final class RedisLockProvider implements LockProvider {

    private static final Set<String> CLUSTER = Set.of("redis-cluster", "rediss-cluster");

    /** Creates the provider; {@link java.util.ServiceLoader} does this. */
    public RedisLockProvider() {}

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("redis", "rediss", "redis-sentinel", "rediss-sentinel", "redis-cluster", "rediss-cluster");
    }

    @Override
    public Set<String> optionNames() {
        return Set.of(
                "timeout", "replicas", "replica-timeout", "database", "clientName", "sentinelMasterId", "verifyPeer");
    }

    @Override
    public LockBackend open(BackendContext context) {
        RedisSettings settings = RedisSettings.of(context);
        String description = context.redactedLocation();
        if (CLUSTER.contains(context.scheme())) {
            if (settings.replicas() > 0) {
                throw new LockConfigurationException(
                        "the replicas option is not supported on Redis Cluster (" + description + ")");
            }
            RedisClusterClient client = RedisClusterClient.create(RedisUris.cluster(context, settings));
            client.setOptions(ClusterClientOptions.builder()
                    .socketOptions(socket(settings))
                    .timeoutOptions(TimeoutOptions.enabled(settings.timeout()))
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .build());
            return connect(() -> RedisLink.cluster(client, true), client::shutdown, description, settings, context);
        }
        RedisClient client = RedisClient.create(RedisUris.standalone(context, settings));
        client.setOptions(options(settings));
        return connect(() -> RedisLink.standalone(client, true), client::shutdown, description, settings, context);
    }

    static ClientOptions options(RedisSettings settings) {
        return ClientOptions.builder()
                .socketOptions(socket(settings))
                .timeoutOptions(TimeoutOptions.enabled(settings.timeout()))
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build();
    }

    private static SocketOptions socket(RedisSettings settings) {
        return SocketOptions.builder()
                .connectTimeout(settings.timeout())
                .keepAlive(true)
                .build();
    }

    interface Connect {
        RedisLink open();
    }

    /** Connects, turning Lettuce's failures into errors that name the server and never the password. */
    static RedisBackend connect(
            Connect connect, Runnable shutdown, String description, RedisSettings settings, BackendContext context) {
        try {
            return new RedisBackend(connect.open(), description, settings, context.events(), context.ticker());
        } catch (RedisConnectionException e) {
            shutdown.run();
            String cause = Redaction.redact(rootMessage(e));
            String upper = cause.toUpperCase(Locale.ROOT);
            if (upper.contains("WRONGPASS") || upper.contains("NOAUTH") || upper.contains("AUTH")) {
                throw new LockConfigurationException("authentication to " + description + " failed: " + cause, e);
            }
            throw new LockBackendException("cannot connect to " + description + ": " + cause, e);
        } catch (RuntimeException e) {
            shutdown.run();
            throw new LockBackendException("cannot open " + description + ": " + Redaction.redact(rootMessage(e)), e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t.getMessage() + ")";
    }
}
