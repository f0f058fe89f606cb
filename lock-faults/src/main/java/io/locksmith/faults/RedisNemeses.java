package io.locksmith.faults;

import io.locksmith.testing.RedisClusterGroup;
import io.locksmith.testing.RedisSentinelGroup;
import io.locksmith.testing.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The nemeses that act on a replicated Redis: a failover under a Sentinel or in a Cluster, and a
 * Cluster slot moved to another master. Each leaves the servers whole for the next fault: a
 * killed master comes back as a replica, a moved slot stays where it went.
 */
final class RedisNemeses {

    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(30);

    private final Stage stage;
    private final Duration lease;

    RedisNemeses(Stage stage) {
        this.stage = stage;
        this.lease = stage.target().lease();
    }

    /**
     * The Redis key of the run's lock, as docs/backends/redis.md names it
     * ({@code locksmith:{TAG}:K:lock}, TAG eight hex digits of {@code K.hashCode()}): what decides
     * its Cluster slot. The workers take no prefix, so {@code K} is the lock's name.
     */
    private String lockKey() {
        String name = stage.lockName();
        String tag = Integer.toHexString(name.hashCode());
        return "locksmith:{" + "0".repeat(8 - tag.length()) + tag + "}:" + name + ":lock";
    }

    /**
     * Kills the master that serves the lock's slot and waits until its replica has been promoted
     * (the cluster's own failover, after {@code cluster-node-timeout}), then brings the killed node
     * back as the new master's replica, so that the next failover finds a replica to promote.
     */
    boolean clusterFailover(RedisClusterGroup cluster) {
        TestServer master = cluster.masterOf(lockKey());
        // logged as the kill is sent: failOver kills and waits for the promotion in one call
        stage.log().write("FAILOVER");
        try {
            cluster.failOver(master);
        } finally {
            cluster.rejoin(master);
            stage.log().write("SERVER_UP");
        }
        return true;
    }

    /**
     * Moves the lock's slot to another master, holding the migration for half a lease once every
     * key has moved and the old owner still owns the slot (the {@code ASK} window), where a
     * renewal, a release and an attempt meet the split that a resharding makes.
     */
    boolean migrate(RedisClusterGroup cluster) {
        String key = lockKey();
        TestServer owner = cluster.masterOf(key);
        TestServer to = cluster.masters().stream().filter(m -> m.port() != owner.port()).findFirst()
                .orElseThrow(() -> new IllegalStateException("the cluster has no master other than the lock's owner"));
        int slot = cluster.slotOf(key);
        stage.log().write("MIGRATE", slot);
        try {
            cluster.migrateSlot(key, to, step -> {
                if (step == RedisClusterGroup.MigrationStep.KEYS_MOVED) {
                    Nemeses.sleep(lease.dividedBy(2));
                }
            });
        } finally {
            stage.log().write("MIGRATED", slot);
        }
        return true;
    }

    /**
     * Kills whichever server the Sentinel names master, waits for it to name the other, and
     * restarts the killed one, which the Sentinel then turns into a replica.
     */
    boolean sentinelFailover(RedisSentinelGroup group) throws InterruptedException {
        int masterPort = masterPort(group);
        TestServer master = group.master().port() == masterPort ? group.master() : group.replica();
        master.kill();
        stage.log().write("FAILOVER");
        try {
            long end = System.nanoTime() + FAILOVER_BOUND.toNanos();
            while (masterPort(group) == masterPort) {
                if (System.nanoTime() - end > 0) {
                    throw new IllegalStateException("the Sentinel did not promote the replica within " + FAILOVER_BOUND);
                }
                Nemeses.sleep(Duration.ofMillis(100));
            }
        } finally {
            master.restart();
            stage.log().write("SERVER_UP");
        }
        return true;
    }

    /** Asks the Sentinel {@code SENTINEL get-master-addr-by-name}, in RESP, for the master's port. */
    private static int masterPort(RedisSentinelGroup group) {
        TestServer sentinel = group.sentinel();
        String[] words = {"SENTINEL", "get-master-addr-by-name", group.masterName()};
        StringBuilder request = new StringBuilder("*" + words.length + "\r\n");
        for (String w : words) {
            request.append('$').append(w.length()).append("\r\n").append(w).append("\r\n");
        }
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), sentinel.port())) {
            s.setSoTimeout(5_000);
            OutputStream out = s.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buffer = new byte[256];
            StringBuilder reply = new StringBuilder();
            // *2 $host $port: complete once five line ends have arrived
            while (reply.chars().filter(c -> c == '\n').count() < 5) {
                int n = in.read(buffer);
                if (n < 0) {
                    throw new IOException("the Sentinel closed the connection after '" + reply + "'");
                }
                reply.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
            }
            String[] lines = reply.toString().split("\r\n");
            return Integer.parseInt(lines[4]);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot ask the Sentinel for the master", e);
        }
    }

}
