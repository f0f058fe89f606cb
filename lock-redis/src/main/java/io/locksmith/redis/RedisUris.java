package io.locksmith.redis;

import io.lettuce.core.RedisURI;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendAddress;
import io.locksmith.spi.BackendAddress.HostPort;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lettuce's URIs for a lock URI, built from the context's parsed {@link BackendAddress}: one for a
 * server or a Sentinel group (its sentinels in the one URI), one per seed node for a Cluster. The
 * password leaves its {@link Secret} only here, into Lettuce's credentials.
 *
 * <p>As in Lettuce's own URIs, a user-info without a colon is a bare password
 * ({@code redis://secret@host}), and {@code redis://:secret@host} is one too; {@code user:secret}
 * is an ACL user and its password. The path is the database number, the fragment a Sentinel
 * group's master.
 */
final class RedisUris {

    private static final String FORM = "redis://[[user:]password@]host[:port][/database],"
            + " redis-sentinel://[[user:]password@]host[:port][,host[:port]...][/database]#master"
            + " or redis-cluster://[[user:]password@]host[:port][,host[:port]...]";

    private RedisUris() {}

    /** @return the URI of a standalone server, or of a Sentinel group for a {@code -sentinel} scheme */
    static RedisURI standalone(BackendContext context, RedisSettings settings) {
        BackendAddress address = address(context);
        RedisURI.Builder uri;
        if (context.scheme().endsWith("-sentinel")) {
            uri = RedisURI.builder();
            for (HostPort sentinel : address.hosts()) {
                uri.withSentinel(sentinel.host(), sentinel.portOr(RedisURI.DEFAULT_SENTINEL_PORT));
            }
            Optional<String> master = context.option("sentinelMasterId").or(address::fragment);
            uri.withSentinelMasterId(master.filter(m -> !m.isBlank())
                    .orElseThrow(() -> malformed(
                            context,
                            "a Sentinel URI names its master group after '#' (or in the sentinelMasterId option)")));
        } else {
            if (address.hosts().size() > 1) {
                throw malformed(context, "one host expected; list several with redis-sentinel:// or redis-cluster://");
            }
            HostPort server = address.host();
            uri = RedisURI.builder().withHost(server.host()).withPort(server.portOr(RedisURI.DEFAULT_REDIS_PORT));
        }
        int database = database(context, address);
        uri.withDatabase(context.intOption("database", database, 0));
        return finish(uri, context, address, settings);
    }

    /** @return one URI per seed node of a Cluster */
    static List<RedisURI> cluster(BackendContext context, RedisSettings settings) {
        BackendAddress address = address(context);
        List<RedisURI> uris = new ArrayList<>();
        for (HostPort node : address.hosts()) {
            uris.add(finish(
                    RedisURI.builder().withHost(node.host()).withPort(node.portOr(RedisURI.DEFAULT_REDIS_PORT)),
                    context,
                    address,
                    settings));
        }
        return uris;
    }

    private static RedisURI finish(
            RedisURI.Builder uri, BackendContext context, BackendAddress address, RedisSettings settings) {
        uri.withSsl(context.scheme().startsWith("rediss"));
        uri.withVerifyPeer(context.booleanOption("verifyPeer", true));
        uri.withTimeout(settings.timeout());
        context.option("clientName").ifPresent(uri::withClientName);
        String user = address.user().orElse("");
        Optional<Secret> password = address.password();
        if (password.isEmpty()) {
            if (!user.isEmpty()) {
                uri.withPassword(user.toCharArray()); // redis://secret@host: a bare password
            }
        } else if (!password.get().reveal().isEmpty()) {
            if (user.isEmpty()) {
                uri.withPassword(password.get().toCharArray());
            } else {
                uri.withAuthentication(user, password.get().toCharArray());
            }
        } // redis://user:@host: no credentials, as in Lettuce's own URIs
        return uri.build();
    }

    private static int database(BackendContext context, BackendAddress address) {
        String path = address.path();
        if (path.isEmpty() || path.equals("/")) {
            return 0;
        }
        try {
            int database = Integer.parseInt(path.substring(1));
            if (database >= 0) {
                return database;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw malformed(context, "the path must be a database number, was '" + path + "'");
    }

    private static BackendAddress address(BackendContext context) {
        try {
            return context.address();
        } catch (LockConfigurationException e) {
            throw new LockConfigurationException(e.getMessage() + "; a Redis URI has the form " + FORM, e);
        }
    }

    private static LockConfigurationException malformed(BackendContext context, String why) {
        return new LockConfigurationException("malformed Redis URI '" + context.redactedLocation() + "': " + why);
    }
}
