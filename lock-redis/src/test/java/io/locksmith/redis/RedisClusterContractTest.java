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
import io.locksmith.testing.ProxiedSubject;
import io.locksmith.testing.RedisClusterGroup;
import io.locksmith.testing.StallingBackend;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The whole compatibility kit against a real Redis Cluster (three masters with replicas, shared by
 * the JVM's tests). A client follows the Cluster's redirects to the nodes' own addresses, so no
 * proxy stands between it and the nodes: its connection is cut by stalling its calls. The hooks
 * that need a single server process or a proxy per client (restart, delayed replies) and the
 * credential rule run against one server instead ({@link RedisContractTest}).
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
        private final Map<LockClient, StallingBackend> stalls = new ConcurrentHashMap<>();

        ClusterSubject(RedisClusterGroup cluster) {
            this.cluster = cluster;
            this.admin = RedisClusterClient.create(
                    RedisURI.create(cluster.masters().get(0).uri()));
            this.adminConnection = admin.connect();
        }

        @Override
        public String name() {
            return "redis-cluster";
        }

        @Override
        public LockClient newClient(LockOptions options) {
            StallingBackend[] opened = new StallingBackend[1];
            LockClient client = LockClient.open(
                    cluster.uri() + "?timeout=2s",
                    options,
                    backend -> opened[0] = new StallingBackend(backend, ProxiedSubject.STALL_BOUND));
            stalls.put(client, opened[0]);
            return client;
        }

        @Override
        public Capabilities capabilities() {
            return Capabilities.builder()
                    .minimumLease(Duration.ofMillis(10))
                    .nativeWakeUp(true)
                    .lacks(Fault.SKEW_WALL_CLOCK, Fault.RESTART_SERVER, Fault.DELAY_REPLIES, Fault.SECRET_URI)
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
                    stalls.get(client).stall();
                }

                @Override
                public void restoreConnection(LockClient client) {
                    stalls.get(client).resume();
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
