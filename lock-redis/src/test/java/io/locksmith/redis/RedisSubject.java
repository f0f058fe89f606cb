package io.locksmith.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.locksmith.LockClient;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.SecretUri;
import io.locksmith.testing.ProxiedSubject;
import io.locksmith.testing.TestServer;
import java.time.Duration;
import java.util.Optional;

/**
 * A real redis-server as the kit sees it: each client through its own proxy (to delay its
 * replies, and to crash it), its connection cut by stalling its calls, a lock's state removed
 * through an admin connection, the server process restarted in place (it runs without
 * persistence, so it comes back empty: every lock key and fence counter is gone, holders are lost
 * at their next renewal and tokens restart at 1, as docs/backends/redis.md says).
 */
final class RedisSubject extends ProxiedSubject {

    private static final String SECRET = "kit-redis-s3cret";

    private final RedisClient admin;
    private final StatefulRedisConnection<String, String> adminConnection;

    RedisSubject(TestServer server) {
        super("redis", server, address -> "redis://" + address + "?timeout=2s");
        this.admin = RedisClient.create(server.uri());
        this.adminConnection = admin.connect();
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder()
                .minimumLease(Duration.ofMillis(10))
                .nativeWakeUp(true)
                .lacks(Fault.SKEW_WALL_CLOCK) // leases are Redis's PX: no client wall clock is read
                // the test server keeps no data: after a restart its fence counters start again, as
                // docs/backends/redis.md says of Redis without persistence
                .fencingSurvivesRestart(false)
                .build();
    }

    @Override
    public void removeLockState(String key) {
        adminConnection.sync().del(RedisKeys.lock(key));
    }

    /**
     * Stalls the client's calls (they wait, then time out) instead of dropping its connection:
     * Lettuce's reconnect back-off after a dropped connection can outlast what is left of the
     * lease once the cut ends, which is not what the kit's cut is about.
     */
    @Override
    public void cutConnection(LockClient client) {
        stalls(client).stall();
    }

    @Override
    public void restoreConnection(LockClient client) {
        stalls(client).resume();
    }

    /**
     * The test server's default user has no password, and Redis then accepts any password for it
     * (ACL {@code nopass}): the login succeeds and the client works, with a password in its URI.
     */
    @Override
    public Optional<SecretUri> secretUri() {
        String auth = "redis://default:" + SECRET + "@";
        return Optional.of(new SecretUri(
                auth + server().host() + ":" + server().port() + "?timeout=2s",
                SECRET,
                auth + unreachableAddress() + "?timeout=2s"));
    }

    @Override
    public void close() {
        try {
            adminConnection.close();
            admin.shutdown();
        } finally {
            super.close();
        }
    }
}
