package io.locksmith.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.Faults;
import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.RedisClusterGroup;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The whole compatibility kit against a real Redis Cluster (three masters with replicas, shared by
 * the JVM's tests). The hooks that need a single server process or a proxy per client (restart,
 * delayed replies) are not offered here; {@link RedisContractTest} covers them on one server.
 */
class RedisClusterContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new ClusterSubject(TestServers.redisCluster());
    }

    private static final class ClusterSubject implements TckSubject {

        private final RedisClusterGroup cluster;
        private final RedisClusterClient admin;
        private final StatefulRedisClusterConnection<String, String> adminConnection;
        private final Map<LockClient, RedisBackend> backends = new ConcurrentHashMap<>();

        ClusterSubject(RedisClusterGroup cluster) {
            this.cluster = cluster;
            this.admin = RedisClusterClient.create(RedisURI.create(cluster.masters().get(0).uri()));
            this.adminConnection = admin.connect();
        }

        @Override
        public String name() {
            return "redis-cluster";
        }

        @Override
        public LockClient newClient(LockOptions options) {
            RedisBackend[] opened = new RedisBackend[1];
            LockClient client = LockClient.open(cluster.uri() + "?timeout=2s", options, backend -> {
                opened[0] = (RedisBackend) backend;
                return backend;
            });
            backends.put(client, opened[0]);
            return client;
        }

        @Override
        public Capabilities capabilities() {
            // the cluster fixture restarts no nodes and has no proxy per client: the restart and the
            // delayed-reply rules run against the standalone server (RedisContractTest)
            return Capabilities.builder().minimumLease(Duration.ofMillis(10)).nativeWakeUp(true)
                    .lacks(Fault.SKEW_WALL_CLOCK, Fault.RESTART_SERVER, Fault.DELAY_REPLIES).build();
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
}
