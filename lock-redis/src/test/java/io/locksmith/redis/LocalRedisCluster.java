package io.locksmith.redis;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A three-master Redis Cluster on free loopback ports, started from the local {@code redis-server}
 * for one test class: slots split in three, no replicas, no persistence. A node can be stopped
 * (SIGSTOP) as an unreachable shard is. lock-testing starts single servers and a Sentinel group,
 * not a Cluster; this is the small piece it lacks.
 */
final class LocalRedisCluster implements AutoCloseable {

    private static final int NODES = 3;

    private final Path dir;
    private final List<Process> processes = new ArrayList<>();
    private final int[] ports = new int[NODES];

    LocalRedisCluster() {
        try {
            dir = Files.createTempDirectory("locksmith-redis-cluster");
            for (int i = 0; i < NODES; i++) {
                ports[i] = freePortWithFreeBusPort();
                Path nodeDir = Files.createDirectories(dir.resolve("node-" + i));
                processes.add(new ProcessBuilder("redis-server", "--bind", "127.0.0.1", "--port", Integer.toString(ports[i]),
                        "--dir", nodeDir.toString(), "--save", "", "--appendonly", "no", "--cluster-enabled", "yes",
                        // a stopped node must not take the other shards down with it
                        "--cluster-require-full-coverage", "no", "--cluster-node-timeout", "60000")
                        .redirectErrorStream(true).redirectOutput(nodeDir.resolve("redis.log").toFile()).start());
            }
            for (int i = 0; i < NODES; i++) {
                int node = i;
                await("[redis] cluster node " + i + " answers").atMost(Duration.ofSeconds(20))
                        .until(() -> cli(ports[node], "ping").contains("PONG"));
                int from = 16384 * i / NODES;
                int to = 16384 * (i + 1) / NODES - 1;
                cli(ports[i], "cluster", "addslotsrange", Integer.toString(from), Integer.toString(to));
            }
            for (int i = 1; i < NODES; i++) {
                cli(ports[0], "cluster", "meet", "127.0.0.1", Integer.toString(ports[i]));
            }
            for (int i = 0; i < NODES; i++) {
                int node = i;
                await("[redis] cluster node " + i + " sees the whole cluster").atMost(Duration.ofSeconds(30))
                        .until(() -> cli(ports[node], "cluster", "info").contains("cluster_state:ok")
                                && cli(ports[node], "cluster", "info").contains("cluster_known_nodes:" + NODES));
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("[redis] could not start a local Redis Cluster (is redis-server installed?)", e);
        } catch (InterruptedException e) {
            close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("[redis] interrupted while starting a local Redis Cluster", e);
        }
    }

    /** @return {@code redis-cluster://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3} */
    String uri() {
        return "redis-cluster://127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + ",127.0.0.1:" + ports[2];
    }

    /** @return {@code redis://127.0.0.1:P} of one node, for admin commands */
    String nodeUri(int node) {
        return "redis://127.0.0.1:" + ports[node];
    }

    /** @return the index of the node that serves {@code slot} */
    int nodeOf(int slot) {
        for (int i = 0; i < NODES - 1; i++) {
            if (slot < 16384 * (i + 1) / NODES) {
                return i;
            }
        }
        return NODES - 1;
    }

    /** Stops a node (SIGSTOP): its connections stay open and its replies stop, as a hung shard's do. */
    void pause(int node) {
        signal(node, "-STOP");
    }

    void resume(int node) {
        signal(node, "-CONT");
    }

    private void signal(int node, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(processes.get(node).pid())).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("[redis] kill " + signal + " of cluster node " + node + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String cli(int port, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }

    /** A free port whose cluster bus port (port + 10000) is free too. */
    private static int freePortWithFreeBusPort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (port + 10000 < 65536) {
                    try (ServerSocket bus = new ServerSocket(port + 10000, 1, InetAddress.getLoopbackAddress())) {
                        return port;
                    } catch (IOException busTaken) {
                        // try another
                    }
                }
            }
        }
        throw new IOException("no free loopback port with a free cluster bus port in 100 attempts");
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroyForcibly(); // SIGKILL: a stopped node cannot handle SIGTERM
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                // a temporary directory left behind
            }
        }
    }
}
