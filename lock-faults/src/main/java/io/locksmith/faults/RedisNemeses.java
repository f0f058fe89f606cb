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
     * A Redis key of the run's lock, as docs/backends/redis.md names them
     * ({@code locksmith:{TAG}:K:lock}, {@code …:fence}, TAG eight hex digits of {@code K.hashCode()}),
     * whose tag decides the lock's Cluster slot. The workers take no prefix, so {@code K} is the
     * lock's name. A semaphore's keys carry the same tag ({@code …:semaphore-fence}).
     */
    private String lockKey(String suffix) {
        String name = stage.lockName();
        String tag = Integer.toHexString(name.hashCode());
        return "locksmith:{" + "0".repeat(8 - tag.length()) + tag + "}:" + name + suffix;
    }

    /** @return the run's fencing counter: a key without expiry, there from the first grant on */
    private String fenceKey() {
        return lockKey(
                stage.primitive().kind() == WorkerSettings.Primitive.Kind.SEMAPHORE ? ":semaphore-fence" : ":fence");
    }

    /**
     * Kills the master that serves the lock's slot and waits until its replica has been promoted
     * (the cluster's own failover, after {@code cluster-node-timeout}), then brings the killed node
     * back as the new master's replica, so that the next failover finds a replica to promote.
     */
    boolean clusterFailover(RedisClusterGroup cluster) {
        TestServer master = lockMaster(cluster);
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
        String key = fenceKey();
        TestServer owner = lockMaster(cluster);
        TestServer to = cluster.masters().stream()
                .filter(m -> m.port() != owner.port())
                .findFirst()
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
                    throw new IllegalStateException(
                            "the Sentinel did not promote the replica within " + FAILOVER_BOUND);
                }
                Nemeses.sleep(Duration.ofMillis(100));
            }
        } finally {
            master.restart();
            awaitSynced(master);
            stage.log().write("SERVER_UP");
        }
        return true;
    }

    /**
     * Waits until a restarted Redis (empty: it keeps no data) is a replica whose link to the master
     * is up, so it has the master's data. Without this the next failover can promote it before the
     * Sentinel has turned it into a replica, and every lock and counter is gone at once.
     */
    private static void awaitSynced(TestServer server) throws InterruptedException {
        long end = System.nanoTime() + FAILOVER_BOUND.toNanos();
        String replication = "";
        while (!(replication.contains("role:slave") && replication.contains("master_link_status:up"))) {
            if (System.nanoTime() - end > 0) {
                throw new IllegalStateException(server + " did not come back as a synced replica within "
                        + FAILOVER_BOUND + "; INFO replication said: "
                        + replication.lines().limit(6).toList());
            }
            Nemeses.sleep(Duration.ofMillis(100));
            replication = info(server, "replication");
        }
    }

    /** @return the text of {@code INFO section}, or empty if the server does not answer yet */
    private static String info(TestServer server, String section) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(5_000);
            OutputStream out = s.getOutputStream();
            out.write(("*2\r\n$4\r\nINFO\r\n$" + section.length() + "\r\n" + section + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder header = new StringBuilder(); // $LENGTH
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    return "";
                }
                header.append((char) c);
            }
            if (header.charAt(0) != '$') {
                return "";
            }
            return new String(in.readNBytes(Integer.parseInt(header.substring(1).trim())), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return ""; // not listening yet
        }
    }

    /** Asks the Sentinel {@code SENTINEL get-master-addr-by-name} for the master's port. */
    private static int masterPort(RedisSentinelGroup group) {
        // *2 $host host $port port: complete once five line ends have arrived
        String[] lines = ask(group.sentinel(), 5, "SENTINEL", "get-master-addr-by-name", group.masterName());
        return Integer.parseInt(lines[4]);
    }

    /**
     * The master serving the lock's slot, once it is known to hold the lock's fencing counter (a
     * key without expiry, there from the first grant on): a nemesis aimed at the wrong slot would
     * strike nothing and pass, so a key layout that has drifted from lock-redis's fails the run.
     */
    private TestServer lockMaster(RedisClusterGroup cluster) {
        String fence = fenceKey();
        TestServer master = cluster.masterOf(fence);
        if (!ask(master, 1, "EXISTS", fence)[0].equals(":1")) {
            throw new IllegalStateException(
                    "the run's fencing counter " + fence + " is not on " + master
                            + ", the master of its slot: the fault suite's copy of docs/backends/redis.md's key layout is out of date");
        }
        return master;
    }

    /**
     * Sends one command in RESP and reads the reply's first lines.
     *
     * @param lines how many lines make the whole reply
     */
    private static String[] ask(TestServer server, int lines, String... words) {
        StringBuilder request = new StringBuilder("*" + words.length + "\r\n");
        for (String w : words) {
            request.append('$')
                    .append(w.getBytes(StandardCharsets.UTF_8).length)
                    .append("\r\n")
                    .append(w)
                    .append("\r\n");
        }
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(5_000);
            OutputStream out = s.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buffer = new byte[256];
            StringBuilder reply = new StringBuilder();
            while (reply.chars().filter(c -> c == '\n').count() < lines) {
                int n = in.read(buffer);
                if (n < 0) {
                    throw new IOException(server + " closed the connection after '" + reply + "'");
                }
                reply.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
            }
            return reply.toString().split("\r\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot ask " + server + " " + words[0], e);
        }
    }
}
