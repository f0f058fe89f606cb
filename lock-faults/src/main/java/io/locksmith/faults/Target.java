package io.locksmith.faults;

import io.locksmith.testing.RedisClusterGroup;
import io.locksmith.testing.RedisSentinelGroup;
import io.locksmith.testing.TestCluster;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the workers of a run lock against: a backend, its server(s) from lock-testing and the
 * controls the nemeses use on them. Servers start on first use and are shared by every run in
 * the JVM; each run takes its own lock name.
 *
 * @param name     the backend's name in the matrix: {@code redis}, {@code etcd-cluster}, …
 * @param lease    the lease the workers ask for: short, so that a run of a minute sees many
 *                 grants and faults; Azure's shortest blob lease is 15 s
 * @param uri      the URI the worker processes open (they read it from the environment);
 *                 empty for {@code memory}, whose workers are threads
 * @param server   the one server, if the backend has one the suite controls (kill, pause, cut)
 * @param cluster  the cluster, for the leader nemesis
 * @param sentinel the Sentinel group, for the failover nemesis
 * @param redisCluster the Redis Cluster, for its failover and migrate nemeses
 * @param queues   whether the backend queues waiters natively (etcd, ZooKeeper)
 * @param compacts whether the backend keeps a history that can be compacted (etcd)
 */
record Target(
        String name,
        Duration lease,
        Optional<String> uri,
        Optional<TestServer> server,
        Optional<TestCluster> cluster,
        Optional<RedisSentinelGroup> sentinel,
        Optional<RedisClusterGroup> redisCluster,
        boolean queues,
        boolean compacts) {

    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration AZURE_LEASE = Duration.ofSeconds(15);

    /** Every backend the suite knows, in the order of the full matrix. */
    static final List<String> NAMES = List.of(
            "memory",
            "redis",
            "redis-aof",
            "redis-sentinel",
            "redis-cluster",
            "etcd",
            "etcd-cluster",
            "zookeeper",
            "zookeeper-ensemble",
            "postgres",
            "mariadb",
            "sqlite",
            "azurite");

    /** @return whether the workers are threads of the controller's JVM (memory) rather than processes */
    boolean threads() {
        return uri.isEmpty();
    }

    /**
     * Starts (or finds) what a backend needs.
     *
     * @param name one of {@link #NAMES}
     * @param dir  a directory for files the backend keeps (SQLite's database)
     * @return the target
     * @throws IllegalArgumentException for an unknown name
     * @throws io.locksmith.testing.TestServerException if a server cannot be provided; the message
     *     says what to install
     */
    static Target open(String name, Path dir) {
        return switch (name) {
            case "memory" ->
                new Target(
                        name,
                        LEASE,
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        false,
                        false);
            case "redis" ->
                single(name, TestServers.redis(), TestServers.redis().uri(), false, false);
            // appendonly yes, appendfsync always: a restart keeps every acknowledged grant
            case "redis-aof" ->
                single(
                        name,
                        TestServers.redisWithPersistence(),
                        TestServers.redisWithPersistence().uri(),
                        false,
                        false);
            case "redis-sentinel" -> {
                RedisSentinelGroup group = TestServers.redisWithReplicaAndSentinel();
                yield new Target(
                        name,
                        LEASE,
                        Optional.of(group.sentinelUri()),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(group),
                        Optional.empty(),
                        false,
                        false);
            }
            case "redis-cluster" -> {
                RedisClusterGroup group = TestServers.redisCluster();
                yield new Target(
                        name,
                        LEASE,
                        Optional.of(group.uri()),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(group),
                        false,
                        false);
            }
            case "etcd" -> single(name, TestServers.etcd(), TestServers.etcd().uri(), true, true);
            case "etcd-cluster" -> cluster(name, TestServers.etcdCluster(), true);
            case "zookeeper" ->
                single(name, TestServers.zookeeper(), TestServers.zookeeper().uri(), true, false);
            case "zookeeper-ensemble" -> cluster(name, TestServers.zookeeperEnsemble(), false);
            case "postgres" ->
                single(name, TestServers.postgres(), TestServers.postgres().uri(), false, false);
            case "mariadb" ->
                single(name, TestServers.mariadb(), TestServers.mariadb().uri(), false, false);
            case "sqlite" ->
                new Target(
                        name,
                        LEASE,
                        Optional.of("jdbc:sqlite:" + dir.resolve("locks.db")),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        false,
                        false);
            case "azurite" -> {
                TestServer azurite = TestServers.azurite();
                yield new Target(
                        name,
                        AZURE_LEASE,
                        Optional.of("azblob:" + azurite.uri() + "?container=faults"),
                        Optional.of(azurite),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        false,
                        false);
            }
            default -> throw new IllegalArgumentException("unknown backend '" + name + "': use one of " + NAMES);
        };
    }

    private static Target single(String name, TestServer server, String uri, boolean queues, boolean compacts) {
        return new Target(
                name,
                LEASE,
                Optional.of(uri),
                Optional.of(server),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                queues,
                compacts);
    }

    private static Target cluster(String name, TestCluster cluster, boolean queues) {
        return new Target(
                name,
                LEASE,
                Optional.of(cluster.uri()),
                Optional.empty(),
                Optional.of(cluster),
                Optional.empty(),
                Optional.empty(),
                queues,
                false);
    }

    /**
     * The URI one worker opens when its connection goes through a proxy.
     *
     * @param proxyAddress the proxy's {@code 127.0.0.1:PORT}
     * @return the URI with the server's address replaced by the proxy's
     */
    String uriThrough(String proxyAddress) {
        TestServer s = server.orElseThrow(() -> new IllegalStateException(name + " has no single server to cut"));
        String address = s.host() + ":" + s.port();
        String u = uri.orElseThrow();
        if (!u.contains(address)) {
            throw new IllegalStateException(
                    name + "'s URI does not name its server's address, so it cannot be proxied");
        }
        return u.replace(address, proxyAddress);
    }

    @Override
    public String toString() {
        return name; // never the URI: it may carry credentials
    }
}
