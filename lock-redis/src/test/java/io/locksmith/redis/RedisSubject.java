package io.locksmith.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.BackendConfig;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Faults;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.TestServer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A real redis-server as the kit sees it, with fault hooks through an admin connection. */
final class RedisSubject implements TckSubject {

    private final TestServer server;
    private final RedisClient admin;
    private final StatefulRedisConnection<String, String> adminConnection;
    private final Map<LockClient, RedisBackend> backends = new ConcurrentHashMap<>();

    RedisSubject(TestServer server) {
        this.server = server;
        this.admin = RedisClient.create(server.uri());
        this.adminConnection = admin.connect();
    }

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public LockClient newClient(LockOptions options) {
        RedisBackend[] opened = new RedisBackend[1];
        LockClient client = LockClient.of(events -> {
            opened[0] = (RedisBackend) new RedisLockProvider().open(
                    new BackendConfig("redis", server.uri(), Map.of("timeout", "2s"), options, events));
            return opened[0];
        }, options);
        backends.put(client, opened[0]);
        return client;
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder().minimumLease(Duration.ofMillis(10)).nativeWakeUp(true).build();
    }

    @Override
    public Faults faults() {
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                adminConnection.sync().del(RedisKeys.lock(key));
            }

            @Override
            public void cutConnection(LockClient client) {
                backends.get(client).link().stall(true);
            }

            @Override
            public void restoreConnection(LockClient client) {
                backends.get(client).link().stall(false);
            }
        };
    }

    @Override
    public void close() {
        adminConnection.close();
        admin.shutdown();
    }
}
