package io.locksmith.zookeeper;

import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.LossReason;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * Locks in ZooKeeper: an ephemeral sequential node per waiter under the lock's container node; the
 * lowest node holds, its creating transaction (czxid) is the fencing token, and the lease is the
 * client's session.
 *
 * <p>The core keeps the grants, their deadlines and the timers; this backend keeps only what
 * ZooKeeper needs: each grant's node and its watch ({@link HeldNode}, the grant's attachment), the
 * queue of waiters, the nodes still to delete, and the policy for connection states. Its periodic
 * and delayed work runs on the client's {@link BackendContext#scheduler()}.
 */
final class ZooKeeperBackend implements LockBackend {

    /** Shorter leases would be renewed more often than a round trip to an ensemble reliably takes. */
    static final Duration MINIMUM_LEASE = Duration.ofMillis(100);

    private final NodeOps ops;
    private final BackendContext context;
    private final LockQueue queue;
    private final SharedQueue shared;
    /** Locks wait in {@link LockQueue}, semaphores and read-write locks in {@link SharedQueue}. */
    private final QueuedAcquirer queues;

    private final SessionPolicy policy;
    private final Duration session;
    private final Runnable closeClient;

    private ZooKeeperBackend(
            CuratorFramework client,
            String description,
            Duration session,
            Duration grace,
            BackendContext context,
            Runnable closeClient) {
        this.ops = new NodeOps(client, description);
        this.context = context;
        this.session = session;
        this.closeClient = closeClient;
        this.queue = new LockQueue(ops, context);
        this.shared = new SharedQueue(ops, context);
        this.queues = request ->
                request.hold().kind() == Hold.Kind.EXCLUSIVE ? queue.enqueue(request) : shared.enqueue(request);
        Runnable reconnected = () -> {
            queue.reconnected();
            shared.reconnected();
        };
        this.policy =
                new SessionPolicy(context, reconnected, ops.leftovers(), grace != null ? grace : session, description);
        client.getConnectionStateListenable().addListener(policy);
    }

    /**
     * Opens the backend on a started client: waits for a session within the connection timeout and
     * checks the chroot and access to the lock nodes, so that a wrong deployment fails here, clearly.
     *
     * @param context the client's context: its events, scheduler, clock and held leases
     * @param closeClient run on close: closes the client if the backend owns it
     */
    static ZooKeeperBackend open(
            CuratorFramework client,
            String description,
            String chroot,
            Duration grace,
            BackendContext context,
            Runnable closeClient) {
        if (client.getState() != CuratorFrameworkState.STARTED) {
            throw new IllegalArgumentException(
                    "the CuratorFramework for " + description + " must be started, was " + client.getState());
        }
        int timeoutMs = client.getZookeeperClient().getConnectionTimeoutMs();
        try {
            if (!client.blockUntilConnected(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new LockBackendException("cannot connect to " + description
                        + ": no ZooKeeper server answered within " + timeoutMs + " ms");
            }
            if (!chroot.isEmpty() && client.checkExists().forPath("/") == null) {
                throw new LockConfigurationException("the chroot " + chroot + " does not exist on " + description
                        + ": create it first, or leave it out of the URI");
            }
            if (client.checkExists().forPath(LockPaths.ROOT) != null) {
                client.getChildren().forPath(LockPaths.ROOT); // needs READ: wrong credentials fail here
            }
            Duration session =
                    Duration.ofMillis(client.getZookeeperClient().getZooKeeper().getSessionTimeout());
            return new ZooKeeperBackend(client, description, session, grace, context, closeClient);
        } catch (KeeperException.NoAuthException e) {
            throw new LockConfigurationException(
                    "authentication to " + description + " failed: the client may not" + " read " + LockPaths.ROOT
                            + " (check the user and password, and the ACLs there)",
                    e);
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
        if (request.hold().kind() != Hold.Kind.EXCLUSIVE) {
            return shared.tryAcquire(request);
        }
        String lockPath = LockPaths.lock(request.key());
        String queueing = "queueing for lock '" + request.name() + "'";
        HeldNode held = HeldNode.acquiring(ops, context.events(), request);
        Watcher watch = held.queueWatch();
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
            return held.holdWatched(node);
        }
        ops.delete(node.path(), request.name()); // at once: a node left in the queue would be granted to no one
        return Held.UNKNOWN; // the holder's lease is its session, which no one else can read
    }

    /**
     * One read-only multi for the whole batch, of every kind: each node must still exist, be this
     * session's, and be the grant's (a lock's token is its node's czxid, a shared grant's the mzxid
     * of the write that granted it). The answer, on the session, also proves the session alive; the core counts the
     * lease from the call's send.
     */
    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        List<String> paths = new ArrayList<>(leases.size());
        for (HeldLease l : leases) {
            paths.add(l.attachment(HeldNode.class).path());
        }
        long sessionId = ops.sessionId();
        List<Stat> stats = ops.stats(paths, leases.get(0).name());
        List<RenewOutcome> out = new ArrayList<>(leases.size());
        for (int i = 0; i < leases.size(); i++) {
            Stat s = stats.get(i);
            HeldLease l = leases.get(i);
            if (s != null && s.getEphemeralOwner() == sessionId && tokenOf(s, l) == l.token()) {
                out.add(RenewOutcome.RENEWED);
            } else {
                out.add(RenewOutcome.NOT_OWNED);
            }
        }
        return out;
    }

    private static long tokenOf(Stat node, HeldLease lease) {
        return lease.hold().kind() == Hold.Kind.EXCLUSIVE ? node.getCzxid() : node.getMzxid();
    }

    /** Deletes the grant's own node: its path is unique to the acquisition, so no other owner's node can go. */
    @Override
    public boolean release(HeldLease lease) {
        HeldNode held = lease.attachment(HeldNode.class);
        held.end();
        return ops.delete(held.path(), lease.name());
    }

    /**
     * Deletes the grant's node once the core no longer counts it held: ZooKeeper would keep it as
     * long as the session lives, so an unrenewed lease would otherwise keep the next waiter out
     * past its deadline, and a lock lost with a session that survives after all would be held by no
     * handle. Only the grant's own node goes; if the server cannot be reached, after the next
     * reconnection.
     */
    @Override
    public void lost(HeldLease lease, LossReason reason) {
        HeldNode held = lease.attachment(HeldNode.class);
        held.end();
        ops.deleteInBackground(held.path());
    }

    @Override
    public Optional<LockInspector> inspector() {
        return Optional.of(new ZooKeeperInspector(ops.client(), ops.description()));
    }

    @Override
    public Optional<QueuedAcquirer> queue() {
        return Optional.of(queues);
    }

    @Override
    public Set<Hold.Kind> holds() {
        return EnumSet.allOf(Hold.Kind.class);
    }

    @Override
    public void close() {
        ops.client().getConnectionStateListenable().removeListener(policy);
        queue.close();
        shared.close();
        // a last try for nodes still to delete: a client handed in keeps its session, and with it the nodes
        ops.leftovers().retry();
        closeClient.run();
    }

    @Override
    public String toString() {
        return "ZooKeeperBackend[" + ops.description() + "]";
    }
}
