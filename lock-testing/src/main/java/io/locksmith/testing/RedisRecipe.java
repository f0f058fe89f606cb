package io.locksmith.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * redis-server as a master, as a replica of a master, as a Sentinel monitoring a master, or as a
 * Redis Cluster node. Without persistence (no RDB, no AOF): a restarted Redis comes back empty, as
 * one configured for speed does; except the {@linkplain #persistent persistent} master, which
 * keeps an append-only file synced on every write; a Cluster node keeps only its {@code nodes.conf} (its identity
 * and what it knew of the cluster), so it rejoins as the node it was.
 */
final class RedisRecipe implements Recipe {

    static final String MASTER_NAME = "mymaster";

    private enum Role {
        MASTER,
        PERSISTENT_MASTER,
        REPLICA,
        SENTINEL,
        CLUSTER_NODE
    }

    private final Path binary;
    private final Role role;
    private final int masterPort;
    private final int busPort;
    private final Duration nodeTimeout;

    private RedisRecipe(Path binary, Role role, int masterPort, int busPort, Duration nodeTimeout) {
        this.binary = binary;
        this.role = role;
        this.masterPort = masterPort;
        this.busPort = busPort;
        this.nodeTimeout = nodeTimeout;
    }

    private RedisRecipe(Path binary, Role role, int masterPort) {
        this(binary, role, masterPort, 0, Duration.ZERO);
    }

    static RedisRecipe master(Path binary) {
        return new RedisRecipe(binary, Role.MASTER, 0);
    }

    /**
     * A master with {@code appendonly yes} and {@code appendfsync always}: every write is on disk
     * before it is answered, so a server killed and restarted on its directory has every key it
     * acknowledged (expiries included).
     */
    static RedisRecipe persistent(Path binary) {
        return new RedisRecipe(binary, Role.PERSISTENT_MASTER, 0);
    }

    static RedisRecipe replicaOf(Path binary, int masterPort) {
        return new RedisRecipe(binary, Role.REPLICA, masterPort);
    }

    static RedisRecipe sentinelOf(Path binary, int masterPort) {
        return new RedisRecipe(binary, Role.SENTINEL, masterPort);
    }

    /**
     * A Cluster node with its bus on {@code busPort} (not port + 10000, which may be taken or past
     * 65535). A node that misses {@code nodeTimeout} of pings is failing, and its replica is
     * promoted a second or two later. The other shards keep serving while one has no master
     * ({@code cluster-require-full-coverage no}), and a replica stays with the master it was given
     * ({@code cluster-allow-replica-migration no}), so the layout changes only when a test changes it.
     */
    static RedisRecipe clusterNode(Path binary, int busPort, Duration nodeTimeout) {
        return new RedisRecipe(binary, Role.CLUSTER_NODE, 0, busPort, nodeTimeout);
    }

    @Override
    public Backend backend() {
        return Backend.REDIS;
    }

    @Override
    public void prepare(Path dir, int port) throws IOException {
        if (role == Role.SENTINEL) {
            // the Sentinel rewrites its file as it learns the topology, so it lives in the data dir
            String conf = String.join(
                    "\n",
                    "port " + port,
                    "bind " + LocalServer.HOST,
                    "dir " + dir,
                    "sentinel monitor " + MASTER_NAME + " " + LocalServer.HOST + " " + masterPort + " 1",
                    "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                    "sentinel failover-timeout " + MASTER_NAME + " 3000",
                    "");
            Files.writeString(dir.resolve("sentinel.conf"), conf, StandardCharsets.UTF_8);
        }
    }

    @Override
    public List<String> command(Path dir, int port) {
        if (role == Role.SENTINEL) {
            return List.of(binary.toString(), dir.resolve("sentinel.conf").toString(), "--sentinel");
        }
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "--bind",
                LocalServer.HOST,
                "--port",
                Integer.toString(port),
                "--dir",
                dir.toString(),
                "--save",
                "",
                "--appendonly",
                role == Role.PERSISTENT_MASTER ? "yes" : "no",
                "--daemonize",
                "no",
                "--logfile",
                "",
                // a master waits 5 s by default for more replicas before a full sync; here there is one
                "--repl-diskless-sync-delay",
                "0"));
        if (role == Role.PERSISTENT_MASTER) {
            command.addAll(List.of("--appendfsync", "always"));
        }
        if (role == Role.REPLICA) {
            command.addAll(List.of("--replicaof", LocalServer.HOST, Integer.toString(masterPort)));
        }
        if (role == Role.CLUSTER_NODE) {
            command.addAll(List.of(
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-port",
                    Integer.toString(busPort),
                    "--cluster-node-timeout",
                    Long.toString(nodeTimeout.toMillis()),
                    "--cluster-require-full-coverage",
                    "no",
                    "--cluster-allow-replica-migration",
                    "no"));
        }
        return command;
    }

    @Override
    public boolean ready(int port) throws IOException {
        if (role == Role.SENTINEL) {
            return Probes.redis(LocalServer.HOST, port, "SENTINEL", "get-master-addr-by-name", MASTER_NAME)
                            instanceof List<?> address
                    && address.size() == 2;
        }
        return "PONG".equals(Probes.redis(LocalServer.HOST, port, "PING"));
    }

    @Override
    public String version(int port) throws IOException {
        Object info = Probes.redis(LocalServer.HOST, port, "INFO", "server");
        for (String line : String.valueOf(info).split("\r?\n")) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length()).trim();
            }
        }
        return "unknown";
    }

    /** Whether a replica has finished its first sync with the master. */
    static boolean linkedToMaster(int port) throws IOException {
        return String.valueOf(Probes.redis(LocalServer.HOST, port, "INFO", "replication"))
                .contains("master_link_status:up");
    }

    /**
     * Whether the Sentinel lists the replica on {@code replicaPort} as a replica it could promote:
     * flagged only {@code slave} (not down or disconnected) with its link to the master up.
     */
    static boolean sentinelKnowsReplica(int sentinelPort, int replicaPort) throws IOException {
        if (!(Probes.redis(LocalServer.HOST, sentinelPort, "SENTINEL", "REPLICAS", MASTER_NAME)
                instanceof List<?> replicas)) {
            return false;
        }
        for (Object entry : replicas) {
            if (entry instanceof List<?> fields) {
                Map<String, String> replica = new HashMap<>();
                for (int i = 0; i + 1 < fields.size(); i += 2) {
                    replica.put(String.valueOf(fields.get(i)), String.valueOf(fields.get(i + 1)));
                }
                if (Integer.toString(replicaPort).equals(replica.get("port"))
                        && "slave".equals(replica.get("flags"))
                        && "ok".equals(replica.get("master-link-status"))) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public String uri(int port) {
        // a Cluster node's own URI too: a client that wants the cluster uses RedisClusterGroup.uri()
        return "redis://" + LocalServer.HOST + ":" + port;
    }
}
