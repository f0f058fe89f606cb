package io.locksmith.testing;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Six Cluster nodes as child processes: masters 0 to 2 and replicas 3 to 5, replica {@code 3 + i}
 * of master {@code i} at start. Every wait asks the nodes themselves (their {@code CLUSTER NODES}
 * and {@code CLUSTER INFO}) and ends only once every serving node agrees, since one node's view
 * can be ahead of another's until gossip settles.
 */
final class LocalRedisClusterGroup implements RedisClusterGroup {

    static final int SLOTS = 16384;
    static final int MASTERS = 3;
    /** Short, for failovers in a few seconds; long beside the pauses a busy machine gives a Redis. */
    static final Duration NODE_TIMEOUT = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(LocalRedisClusterGroup.class);
    // generous: gossip, elections and full syncs on a saturated 2-core machine
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(60);

    private final List<LocalServer> nodes;
    private final int[] busPorts;
    private final Map<Integer, LocalServer> pausedReplicas = new ConcurrentHashMap<>(); // by their master's port

    LocalRedisClusterGroup(List<LocalServer> nodes, int[] busPorts) {
        this.nodes = List.copyOf(nodes);
        this.busPorts = busPorts.clone();
    }

    /** Starts the six, assigns the slots, introduces the nodes, pairs the replicas, and waits until all is settled. */
    LocalRedisClusterGroup start() {
        long since = System.nanoTime();
        nodes.forEach(LocalServer::launch);
        nodes.forEach(node -> node.awaitReady(since));
        String[] ids = new String[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            ids[i] = String.valueOf(command(nodes.get(i), "CLUSTER", "MYID"));
        }
        for (int i = 0; i < MASTERS; i++) {
            command(
                    nodes.get(i),
                    "CLUSTER",
                    "ADDSLOTSRANGE",
                    Integer.toString(SLOTS * i / MASTERS),
                    Integer.toString(SLOTS * (i + 1) / MASTERS - 1));
        }
        for (int i = 1; i < nodes.size(); i++) {
            command(
                    nodes.get(0),
                    "CLUSTER",
                    "MEET",
                    LocalServer.HOST,
                    Integer.toString(nodes.get(i).port()),
                    Integer.toString(busPorts[i]));
        }
        for (int i = MASTERS; i < nodes.size(); i++) {
            LocalServer replica = nodes.get(i);
            String masterId = ids[i - MASTERS];
            until(
                    "redis cluster: " + replica.name() + " learns of its master",
                    () -> ClusterNodes.of(replica.port()).byId(masterId).isPresent());
            command(replica, "CLUSTER", "REPLICATE", masterId);
        }
        until("redis cluster: every node sees three masters with their synced replicas", () -> {
            for (int i = MASTERS; i < nodes.size(); i++) {
                if (!RedisRecipe.linkedToMaster(nodes.get(i).port())) {
                    return false;
                }
            }
            return everyServingNode(view -> {
                for (int i = 0; i < MASTERS; i++) {
                    Optional<ClusterNodes.Node> master = view.byId(ids[i]);
                    Optional<ClusterNodes.Node> replica = view.byId(ids[i + MASTERS]);
                    if (master.isEmpty()
                            || !master.get().master()
                            || master.get().failing()
                            || replica.isEmpty()
                            || !replica.get().masterId().equals(ids[i])
                            || replica.get().failing()) {
                        return false;
                    }
                }
                return true;
            });
        });
        LOG.info(
                "redis cluster of {} masters and {} replicas ready in {} ms: {}",
                MASTERS,
                nodes.size() - MASTERS,
                (System.nanoTime() - since) / 1_000_000,
                nodes);
        return this;
    }

    @Override
    public String uri() {
        return "redis-cluster://"
                + nodes.subList(0, MASTERS).stream()
                        .map(n -> n.host() + ":" + n.port())
                        .collect(Collectors.joining(","));
    }

    @Override
    public List<TestServer> nodes() {
        return List.copyOf(nodes);
    }

    @Override
    public List<TestServer> masters() {
        ClusterNodes view = view();
        List<TestServer> masters = new ArrayList<>();
        for (LocalServer node : nodes) {
            view.byPort(node.port())
                    .filter(n ->
                            n.master() && !n.slots().isEmpty() && !n.flags().contains("fail"))
                    .ifPresent(n -> masters.add(node));
        }
        return masters;
    }

    @Override
    public TestServer replicaOf(TestServer master) {
        ClusterNodes view = view();
        ClusterNodes.Node m = node(view, master);
        return view.replicaOf(m)
                .map(r -> local(r.port()))
                .orElseThrow(() -> new TestServerException("redis cluster: " + master
                        + " has no replica (was its replica promoted, and it not rejoined?)"));
    }

    @Override
    public int slotOf(String key) {
        Object slot = command(anyServing(), "CLUSTER", "KEYSLOT", key);
        if (!(slot instanceof Long value)) {
            throw new TestServerException("redis cluster: CLUSTER KEYSLOT answered " + slot);
        }
        return value.intValue();
    }

    @Override
    public TestServer masterOf(String key) {
        int slot = slotOf(key);
        return view().masterOf(slot)
                .map(n -> local(n.port()))
                .orElseThrow(() -> new TestServerException("redis cluster: no master serves slot " + slot));
    }

    @Override
    public TestServer failOver(TestServer master) {
        ClusterNodes.Node old = node(view(), master);
        LocalServer replica = (LocalServer) replicaOf(master);
        int slot = old.slots().isEmpty() ? -1 : old.slots().get(0)[0];
        long since = System.nanoTime();
        local(master.port()).kill();
        until(
                "redis cluster: " + replica.name() + " takes over from the killed " + master,
                () -> everyServingNode(view -> view.byPort(replica.port())
                                .map(ClusterNodes.Node::master)
                                .orElse(false)
                        && (slot < 0
                                || view.masterOf(slot)
                                        .map(n -> n.port() == replica.port())
                                        .orElse(false))));
        LOG.info(
                "redis cluster: {} took over from {} in {} ms",
                replica,
                master,
                (System.nanoTime() - since) / 1_000_000);
        return replica;
    }

    @Override
    public void rejoin(TestServer node) {
        LocalServer local = local(node.port());
        if (local.pid() >= 0) {
            return;
        }
        local.restart();
        until(
                "redis cluster: " + local.name() + " rejoins as a synced replica",
                () -> RedisRecipe.linkedToMaster(local.port())
                        && everyServingNode(view -> view.byPort(local.port())
                                .map(n -> !n.master() && !n.failing())
                                .orElse(false)));
    }

    @Override
    public void migrateSlot(String key, TestServer toMaster, MigrationHook hook) {
        new SlotMigration(this, slotOf(key), local(toMaster.port())).run(hook);
    }

    @Override
    public void pauseShard(TestServer master) {
        LocalServer replica = local(replicaOf(master).port());
        command(replica, "CONFIG", "SET", "cluster-replica-no-failover", "yes");
        pausedReplicas.put(master.port(), replica);
        replica.pause();
        local(master.port()).pause();
    }

    @Override
    public void resumeShard(TestServer master) {
        LocalServer paused = local(master.port());
        paused.resume();
        LocalServer replica = pausedReplicas.remove(master.port());
        if (replica != null) {
            replica.resume();
        }
        ClusterNodes.Node m = node(view(), master);
        until(
                "redis cluster: no node counts the resumed " + master + " as failing",
                () -> everyServingNode(view ->
                        view.byId(m.id()).map(n -> n.master() && !n.failing()).orElse(false)));
        if (replica != null) {
            command(replica, "CONFIG", "SET", "cluster-replica-no-failover", "no");
        }
    }

    /** Every serving node's view passes the check, and each says the cluster state is ok. */
    boolean everyServingNode(ViewCheck check) throws IOException {
        for (LocalServer node : nodes) {
            if (node.serving()) {
                if (!String.valueOf(Probes.redis(LocalServer.HOST, node.port(), "CLUSTER", "INFO"))
                                .contains("cluster_state:ok")
                        || !check.test(ClusterNodes.of(node.port()))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A check of one node's view; an IOException counts as "not yet". */
    interface ViewCheck {
        boolean test(ClusterNodes view) throws IOException;
    }

    /** A condition polled by {@link #until}; false or an IOException means "not yet". */
    interface Condition {
        boolean holds() throws IOException;
    }

    static void until(String what, Condition condition) {
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        IOException last = null;
        while (true) {
            try {
                if (condition.holds()) {
                    return;
                }
            } catch (IOException e) {
                last = e;
            }
            if (System.nanoTime() > deadline) {
                throw new TestServerException(
                        what + ": not done within " + SETTLE_TIMEOUT.toSeconds() + " s"
                                + (last == null ? "" : " (last attempt: " + last + ")"),
                        last);
            }
            try {
                Thread.sleep(50); // the poll interval of a bounded wait
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TestServerException("interrupted while waiting: " + what, e);
            }
        }
    }

    /** Sends a command to a node; an error reply or no answer is a TestServerException. */
    static Object command(LocalServer node, String... command) {
        Object reply;
        try {
            reply = Probes.redis(LocalServer.HOST, node.port(), command);
        } catch (IOException e) {
            throw new TestServerException(
                    "redis cluster: " + String.join(" ", command) + " on " + node + " failed: " + e, e);
        }
        if (reply instanceof String text && text.startsWith("-")) {
            throw new TestServerException(
                    "redis cluster: " + String.join(" ", command) + " on " + node + " answered " + text);
        }
        return reply;
    }

    /** The view of the first serving node that answers. */
    ClusterNodes view() {
        return ClusterNodes.ofAnswering(nodes);
    }

    LocalServer anyServing() {
        return nodes.stream()
                .filter(LocalServer::serving)
                .findFirst()
                .orElseThrow(() -> new TestServerException("redis cluster: no node is serving"));
    }

    LocalServer local(int port) {
        return nodes.stream()
                .filter(n -> n.port() == port)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("port " + port + " is not a node of this cluster"));
    }

    private static ClusterNodes.Node node(ClusterNodes view, TestServer server) {
        return view.byPort(server.port())
                .orElseThrow(() -> new IllegalArgumentException(server + " is not a node of this cluster"));
    }

    @Override
    public String toString() {
        return "redis cluster " + nodes;
    }
}
