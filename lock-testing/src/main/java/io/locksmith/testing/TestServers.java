package io.locksmith.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Running servers for tests, each started on first use, once per JVM, and shared.
 *
 * <p>A single server comes from, in this order: the backend's {@code LOCKSMITH_TEST_*_URI}
 * environment variable (an external server, without fault controls); a local binary, started as a
 * child process on a free loopback port with its data in a temporary directory; a container, if
 * the binary is missing and a Docker engine answers. If none is possible the call throws a
 * {@link TestServerException} naming the package to install — a test never skips silently.
 * Clusters and the Sentinel group exist for fault tests and always run from local binaries.
 *
 * <p>Everything started here stops when the JVM exits, also when it is killed.
 *
 * <pre>{@code
 * TestServer pg = TestServers.postgres();
 * try (Connection c = DriverManager.getConnection(pg.uri())) {   // jdbc:postgresql://127.0.0.1:P/postgres?user=postgres
 *     c.createStatement().execute("SELECT 1");
 * }
 * }</pre>
 */
public final class TestServers {

    private static final Logger LOG = LoggerFactory.getLogger(TestServers.class);
    private static final Map<String, Object> STARTED = new ConcurrentHashMap<>();
    private static final Map<String, Object> STARTING = new ConcurrentHashMap<>();
    private static final int CLUSTER_SIZE = 3;

    private TestServers() {}

    /**
     * A Redis server: {@code redis://127.0.0.1:P}, no persistence.
     *
     * @return the shared server
     * @throws TestServerException if no Redis can be provided
     */
    public static TestServer redis() {
        return server(Backend.REDIS);
    }

    /**
     * A second Redis server, with persistence: {@code appendonly yes}, {@code appendfsync always}.
     * Killed and {@linkplain TestServer#restart() restarted}, it comes back with every key it
     * acknowledged, where {@link #redis()} comes back empty.
     *
     * @return the shared server
     * @throws TestServerException if redis-server is not on the PATH
     */
    public static TestServer redisWithPersistence() {
        return once("redis-persistent", () -> {
            LocalServer server = new LocalServer(
                    "redis-persistent",
                    RedisRecipe.persistent(localBinary(Backend.REDIS, "redis-server")),
                    FreePorts.next());
            server.start();
            return server;
        });
    }

    /**
     * A Redis master with one replica and one Sentinel monitoring it as {@code mymaster}.
     *
     * @return the shared group
     * @throws TestServerException if redis-server is missing or the group does not start
     */
    public static RedisSentinelGroup redisWithReplicaAndSentinel() {
        return once("redis-sentinel", () -> {
            Path binary = localBinary(Backend.REDIS, "redis-server");
            int masterPort = FreePorts.next();
            return new LocalSentinelGroup(
                            new LocalServer("redis-master", RedisRecipe.master(binary), masterPort),
                            new LocalServer(
                                    "redis-replica", RedisRecipe.replicaOf(binary, masterPort), FreePorts.next()),
                            new LocalServer(
                                    "redis-sentinel", RedisRecipe.sentinelOf(binary, masterPort), FreePorts.next()))
                    .start();
        });
    }

    /**
     * A Redis Cluster of three masters, each with one replica: {@code redis-cluster://127.0.0.1:P1,…}.
     *
     * @return the shared cluster
     * @throws TestServerException if redis-server is missing or the cluster does not form
     */
    public static RedisClusterGroup redisCluster() {
        return once("redis-cluster", () -> {
            Path binary = localBinary(Backend.REDIS, "redis-server");
            int size = 2 * LocalRedisClusterGroup.MASTERS;
            List<LocalServer> nodes = new ArrayList<>();
            int[] busPorts = new int[size];
            for (int i = 0; i < size; i++) {
                busPorts[i] = FreePorts.next();
                String name = i < LocalRedisClusterGroup.MASTERS
                        ? "redis-cluster-master-" + (i + 1)
                        : "redis-cluster-replica-" + (i - LocalRedisClusterGroup.MASTERS + 1);
                nodes.add(new LocalServer(
                        name,
                        RedisRecipe.clusterNode(binary, busPorts[i], LocalRedisClusterGroup.NODE_TIMEOUT),
                        FreePorts.next()));
            }
            return new LocalRedisClusterGroup(nodes, busPorts).start();
        });
    }

    /**
     * A single-member etcd: {@code etcd://127.0.0.1:P}.
     *
     * @return the shared server
     * @throws TestServerException if no etcd can be provided
     */
    public static TestServer etcd() {
        return server(Backend.ETCD);
    }

    /**
     * A 3-member etcd cluster: {@code etcd://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3}.
     *
     * @return the shared cluster
     * @throws TestServerException if etcd is missing or the cluster does not form
     */
    public static TestCluster etcdCluster() {
        return once("etcd-cluster", () -> {
            Path binary = localBinary(Backend.ETCD, "etcd");
            int[] peerPorts = new int[CLUSTER_SIZE];
            List<String> initial = new ArrayList<>();
            for (int i = 0; i < CLUSTER_SIZE; i++) {
                peerPorts[i] = FreePorts.next();
                initial.add("etcd-" + (i + 1) + "=" + EtcdRecipe.peerUrl(peerPorts[i]));
            }
            String token = "locksmith-" + ProcessHandle.current().pid();
            List<LocalServer> members = new ArrayList<>();
            for (int i = 0; i < CLUSTER_SIZE; i++) {
                String name = "etcd-" + (i + 1);
                members.add(new LocalServer(
                        name,
                        new EtcdRecipe(binary, name, peerPorts[i], String.join(",", initial), token),
                        FreePorts.next()));
            }
            return new LocalCluster(Backend.ETCD, members).start();
        });
    }

    /**
     * A standalone ZooKeeper server: {@code zookeeper://127.0.0.1:P}.
     *
     * @return the shared server
     * @throws TestServerException if no ZooKeeper can be provided
     */
    public static TestServer zookeeper() {
        return server(Backend.ZOOKEEPER);
    }

    /**
     * A 3-member ZooKeeper ensemble: {@code zookeeper://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3}.
     *
     * @return the shared ensemble
     * @throws TestServerException if ZooKeeper is missing or the ensemble does not form
     */
    public static TestCluster zookeeperEnsemble() {
        return once("zookeeper-ensemble", () -> {
            ZooKeeperRecipe.missing().ifPresent(what -> {
                throw new TestServerException(localBinaryMissing(Backend.ZOOKEEPER, what));
            });
            List<String> serverLines = new ArrayList<>();
            for (int i = 1; i <= CLUSTER_SIZE; i++) {
                serverLines.add(
                        "server." + i + "=" + LocalServer.HOST + ":" + FreePorts.next() + ":" + FreePorts.next());
            }
            List<LocalServer> members = new ArrayList<>();
            for (int i = 1; i <= CLUSTER_SIZE; i++) {
                members.add(new LocalServer("zookeeper-" + i, new ZooKeeperRecipe(i, serverLines), FreePorts.next()));
            }
            return new LocalCluster(Backend.ZOOKEEPER, members).start();
        });
    }

    /**
     * A PostgreSQL server: {@code jdbc:postgresql://127.0.0.1:P/postgres?user=postgres}, trust login.
     *
     * @return the shared server
     * @throws TestServerException if no PostgreSQL can be provided
     */
    public static TestServer postgres() {
        return server(Backend.POSTGRES);
    }

    /**
     * A MariaDB server: {@code jdbc:mariadb://127.0.0.1:P/test?user=root}, empty root password.
     *
     * @return the shared server
     * @throws TestServerException if no MariaDB can be provided
     */
    public static TestServer mariadb() {
        return server(Backend.MARIADB);
    }

    /**
     * Azurite's blob service; {@link TestServer#uri()} is a connection string for Azurite's
     * well-known development account, with {@code BlobEndpoint=http://127.0.0.1:P/devstoreaccount1}.
     *
     * @return the shared server
     * @throws TestServerException if no Azurite can be provided
     */
    public static TestServer azurite() {
        return server(Backend.AZURITE);
    }

    /**
     * The single server of a backend, as the backend's own method gives it.
     *
     * @param backend the backend
     * @return the shared server
     * @throws TestServerException if the server cannot be provided
     */
    public static TestServer server(Backend backend) {
        return once(backend.name(), () -> select(backend));
    }

    private static TestServer select(Backend backend) {
        String external = System.getenv(backend.environmentVariable());
        if (external != null && !external.isBlank()) {
            ExternalServer server = ExternalServer.fromVariable(backend, external.trim());
            LOG.info(
                    "{}: using the external server at {}:{} ({})",
                    backend.displayName(),
                    server.host(),
                    server.port(),
                    backend.environmentVariable());
            return server;
        }
        LocalRecipes.Found local = LocalRecipes.single(backend);
        if (local.recipe() != null) {
            LocalServer server = new LocalServer(backend.displayName(), local.recipe(), FreePorts.next());
            server.start();
            return server;
        }
        if (ContainerServer.dockerAvailable()) {
            LOG.info("{}: {}; starting it in a container", backend.displayName(), local.missing());
            return ContainerServer.start(backend);
        }
        throw new TestServerException(Binaries.missingMessage(backend, local.missing()));
    }

    private static Path localBinary(Backend backend, String name) {
        Optional<Path> binary = Binaries.find(name);
        if (binary.isEmpty()) {
            throw new TestServerException(localBinaryMissing(backend, name + " is not on the PATH"));
        }
        return binary.get();
    }

    private static String localBinaryMissing(Backend backend, String what) {
        return backend.displayName()
                + " clusters, groups and servers with persistence run only from a local binary, and " + what
                + ". Install "
                + backend.installHint() + " (scripts/install-test-servers.sh installs every server the tests"
                + " need, and scripts/test.sh runs it first).";
    }

    @SuppressWarnings("unchecked")
    private static <T> T once(String key, Supplier<T> start) {
        Object existing = STARTED.get(key);
        if (existing != null) {
            return (T) existing;
        }
        // one lock per fixture: different servers start in parallel, one server starts once
        synchronized (STARTING.computeIfAbsent(key, k -> new Object())) {
            existing = STARTED.get(key);
            if (existing == null) {
                existing = start.get();
                STARTED.put(key, existing);
            }
            return (T) existing;
        }
    }
}
