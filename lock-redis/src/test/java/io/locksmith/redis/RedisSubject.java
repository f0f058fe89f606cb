package io.locksmith.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.Faults;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.TcpProxy;
import io.locksmith.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A real redis-server as the kit sees it: each client through its own {@link TcpProxy} (to delay
 * its replies), other fault hooks through an admin connection and the server process.
 */
final class RedisSubject implements TckSubject {

    private final TestServer server;
    private final RedisClient admin;
    private final StatefulRedisConnection<String, String> adminConnection;
    private final Map<LockClient, Opened> clients = new ConcurrentHashMap<>();
    private final Queue<TcpProxy> proxies = new ConcurrentLinkedQueue<>();

    RedisSubject(TestServer server) {
        this.server = server;
        this.admin = RedisClient.create(server.uri());
        this.adminConnection = admin.connect();
    }

    @Override
    public String name() {
        return "redis";
    }

    /** Each client talks to the server through its own proxy, so that one client's replies can be delayed. */
    @Override
    public LockClient newClient(LockOptions options) {
        TcpProxy proxy;
        try {
            proxy = new TcpProxy(server.host(), server.port());
        } catch (IOException e) {
            throw new UncheckedIOException("[redis] kit subject: cannot start a proxy for a new client", e);
        }
        proxies.add(proxy);
        RedisBackend[] opened = new RedisBackend[1];
        LockClient client = LockClient.open("redis://" + proxy.address() + "?timeout=2s", options, backend -> {
            opened[0] = (RedisBackend) backend;
            return backend;
        });
        clients.put(client, new Opened(opened[0], proxy));
        return client;
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder().minimumLease(Duration.ofMillis(10)).nativeWakeUp(true)
                .lacks(Fault.SKEW_WALL_CLOCK) // leases are Redis's PX: no client wall clock is read
                // the test server keeps no data: after a restart its fence counters start again, as
                // docs/backends/redis.md says of Redis without persistence
                .fencingSurvivesRestart(false)
                .build();
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
                clients.get(client).backend().link().stall(true);
            }

            @Override
            public void restoreConnection(LockClient client) {
                clients.get(client).backend().link().stall(false);
            }

            /**
             * Restarts the same redis-server on its port. It runs without persistence, so it comes
             * back empty: every lock key and fence counter is gone, holders are lost at their next
             * renewal and tokens restart at 1 (docs/backends/redis.md says when that can happen).
             */
            @Override
            public void restartServer() {
                server.restart();
            }

            @Override
            public void delayReplies(LockClient client, Duration delay) {
                clients.get(client).proxy().delayReplies(delay);
            }
        };
    }

    @Override
    public void close() {
        adminConnection.close();
        admin.shutdown();
        proxies.forEach(TcpProxy::close);
    }

    private record Opened(RedisBackend backend, TcpProxy proxy) {}
}
