package io.locksmith.zookeeper;

import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Locks in ZooKeeper: an ephemeral sequential node per waiter under the lock's container node; the
 * lowest node holds, its creating transaction (czxid) is the fencing token, and the lease is the
 * client's session.
 */
final class ZooKeeperBackend implements LockBackend {

    /** Shorter leases would be renewed more often than a round trip to an ensemble reliably takes. */
    static final Duration MINIMUM_LEASE = Duration.ofMillis(100);
    private static final AtomicInteger BACKENDS = new AtomicInteger();

    private final NodeOps ops;
    private final HeldNodes held;
    private final LockQueue queue;
    private final SessionPolicy policy;
    private final ScheduledThreadPoolExecutor thread;
    private final Duration session;
    private final Runnable closeClient;

    private ZooKeeperBackend(CuratorFramework client, String description, Duration session, Duration grace,
            BackendEvents events, Runnable closeClient) {
        this.ops = new NodeOps(client, description);
        this.session = session;
        this.closeClient = closeClient;
        int id = BACKENDS.incrementAndGet();
        this.thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "locksmith-zookeeper-" + id);
            t.setDaemon(true);
            return t;
        });
        thread.setRemoveOnCancelPolicy(true);
        this.held = new HeldNodes(ops, events, thread);
        this.queue = new LockQueue(ops, held, thread);
        this.policy = new SessionPolicy(held, queue, ops.leftovers(), thread, grace != null ? grace : session,
                description);
        client.getConnectionStateListenable().addListener(policy);
    }

    /**
     * Opens the backend on a started client: waits for a session within the connection timeout and
     * checks the chroot and access to the lock nodes, so that a wrong deployment fails here, clearly.
     *
     * @param closeClient run on close: closes the client if the backend owns it
     */
    static ZooKeeperBackend open(CuratorFramework client, String description, String chroot, Duration grace,
            BackendEvents events, Runnable closeClient) {
        if (client.getState() != CuratorFrameworkState.STARTED) {
            throw new IllegalArgumentException("the CuratorFramework for " + description + " must be started, was "
                    + client.getState());
        }
        int timeoutMs = client.getZookeeperClient().getConnectionTimeoutMs();
        try {
            if (!client.blockUntilConnected(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new LockBackendException("cannot connect to " + description + ": no ZooKeeper server answered within "
                        + timeoutMs + " ms");
            }
            if (!chroot.isEmpty() && client.checkExists().forPath("/") == null) {
                throw new LockConfigurationException("the chroot " + chroot + " does not exist on " + description
                        + ": create it first, or leave it out of the URI");
            }
            if (client.checkExists().forPath(LockPaths.ROOT) != null) {
                client.getChildren().forPath(LockPaths.ROOT); // needs READ: wrong credentials fail here
            }
            Duration session = Duration.ofMillis(client.getZookeeperClient().getZooKeeper().getSessionTimeout());
            return new ZooKeeperBackend(client, description, session, grace, events, closeClient);
        } catch (KeeperException.NoAuthException e) {
            throw new LockConfigurationException("authentication to " + description + " failed: the client may not"
                    + " read " + LockPaths.ROOT + " (check the user and password, and the ACLs there)", e);
        } catch (LockBackendException | LockConfigurationException e) {
            throw e;
        } catch (Exception e) {
            throw Failures.of("opening", description, e);
        }
    }

    @Override
    public String description() {
        return ops.description();
    }

    @Override
    public Duration minimumLease() {
        return MINIMUM_LEASE;
    }

    /** A longer lease than the session could outlive it: the server would free the lock while the handle still counted it held. */
    @Override
    public Duration maximumLease() {
        return session;
    }

    /**
     * Creates our node and lists the queue in one round trip: the listing is sent right behind the
     * create, and ZooKeeper answers a session's requests in order, so it includes our node (unless
     * the create first had to make the lock node, which takes one more listing).
     */
    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        String lockPath = LockPaths.lock(request.key());
        String queueing = "queueing for lock '" + request.name() + "'";
        HeldNodes.QueueWatch watch = held.queueWatch();
        CompletableFuture<NodeOps.LockNode> created = ops.createInBackground(lockPath, request);
        List<String> queue;
        try {
            queue = ops.childrenWatched(lockPath, watch, request.name()); // answered after the create
        } catch (RuntimeException e) {
            created.thenAccept(late -> ops.deleteInBackground(late.path()));
            throw e;
        }
        NodeOps.LockNode node;
        try {
            node = ops.await(created, queueing);
        } catch (LockBackendException e) {
            if (!(e.getCause() instanceof KeeperException.NoNodeException)) {
                created.thenAccept(late -> ops.deleteInBackground(late.path())); // interrupted before the answer came
                throw e;
            }
            node = ops.create(lockPath, request); // the server reaped the lock node Curator had just made: again
        }
        boolean lowest;
        try {
            node = ops.withToken(node, request.name());
            if (!queue.contains(node.name())) {
                queue = ops.childrenWatched(lockPath, watch, request.name());
            }
            ops.deleteStrays(node, queue);
            if (node.session() != ops.sessionId()) {
                // the session that made the node ended meanwhile: its node goes with it, so it may not hold
                throw Failures.of(queueing, ops.description(), new KeeperException.SessionExpiredException());
            }
            lowest = LockPaths.predecessor(node.name(), queue).isEmpty();
        } catch (RuntimeException e) {
            ops.deleteInBackground(node.path());
            throw e;
        }
        if (lowest) {
            return held.adoptWatched(node, request, watch);
        }
        ops.delete(node.path(), request.name()); // at once: a node left in the queue would be granted to no one
        return Held.UNKNOWN; // the holder's lease is its session, which no one else can read
    }

    /** One read-only multi for the whole batch: each node must still exist, be this session's, and be the grant's. */
    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        List<String> paths = new ArrayList<>(leases.size());
        for (HeldLease l : leases) {
            paths.add(node(l).path());
        }
        long sessionId = ops.sessionId();
        List<Stat> stats = ops.stats(paths, leases.get(0).name());
        long confirmed = System.nanoTime();
        List<RenewOutcome> out = new ArrayList<>(leases.size());
        for (int i = 0; i < leases.size(); i++) {
            Stat s = stats.get(i);
            HeldLease l = leases.get(i);
            if (s != null && s.getEphemeralOwner() == sessionId && s.getCzxid() == l.token()) {
                held.renewed(paths.get(i), l.lease(), confirmed);
                out.add(RenewOutcome.RENEWED);
            } else {
                out.add(RenewOutcome.NOT_OWNED);
            }
        }
        return out;
    }

    /** Deletes the grant's own node: its path is unique to the acquisition, so no other owner's node can go. */
    @Override
    public boolean release(HeldLease lease) {
        NodeOps.LockNode node = node(lease);
        held.forget(node.path());
        return ops.delete(node.path(), lease.name());
    }

    @Override
    public Optional<LockInspector> inspector() {
        return Optional.of(new ZooKeeperInspector(ops.client(), ops.description()));
    }

    @Override
    public Optional<QueuedAcquirer> queue() {
        return Optional.of(queue);
    }

    @Override
    public void close() {
        ops.client().getConnectionStateListenable().removeListener(policy);
        queue.close();
        thread.shutdownNow();
        // a last try for nodes still to delete: a client handed in keeps its session, and with it the nodes
        ops.leftovers().retry();
        closeClient.run();
    }

    private static NodeOps.LockNode node(HeldLease lease) {
        return (NodeOps.LockNode) lease.attachment();
    }

    @Override
    public String toString() {
        return "ZooKeeperBackend[" + ops.description() + "]";
    }
}
