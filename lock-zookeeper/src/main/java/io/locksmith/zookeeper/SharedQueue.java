package io.locksmith.zookeeper;

import io.locksmith.LockBackendException;
import io.locksmith.PermitMismatchException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Held;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Semaphores and read-write locks: a holder's or waiter's ephemeral sequential node in the key's
 * queue ({@link SharedPaths}), which holds by its place in it ({@link Standing}). A node is granted
 * by a data write on it, whose transaction is the grant's fencing token; the lease is the
 * session, as for locks.
 *
 * <p>Waiters are granted in queue order (a reader behind a waiting writer waits for it) and each
 * watches only what can move it ({@link Standing}). As in every {@link NodeQueue}, a waiter's
 * steps after its first look run on the client's workers, one at a time under the waiter's
 * monitor, and a ticket fails, its node deleted, when it can no longer be granted: the server
 * cannot be reached, the session that made the node ended, or the node was removed.
 *
 * <p>A permit's mismatch is found by the first look, which the caller's {@link #tryAcquire} or
 * {@link #enqueue} makes on its own thread, and thrown there: nodes only leave the queue, so no
 * later look can find one.
 */
final class SharedQueue extends NodeQueue {

    private static final Logger log = LoggerFactory.getLogger(SharedQueue.class);

    SharedQueue(NodeOps ops, BackendContext context) {
        super(ops, context);
    }

    /** A node just created, and the queue as the listing sent right behind its create saw it. */
    private record Joined(NodeOps.LockNode node, List<String> children, long sentAtNanos) {}

    /**
     * Creates the request's node and lists the queue in one round trip, as a lock's attempt does
     * ({@link ZooKeeperBackend#tryAcquire}): the listing is sent right behind the create, and
     * ZooKeeper answers a session's requests in order, so it includes our node (unless the create
     * first had to make the key's node, which takes one more listing).
     */
    private Joined join(String parent, AcquireRequest request) {
        String queueing = "queueing for " + request.hold() + " of '" + request.name() + "'";
        long sent = context.ticker().nanoTime();
        CompletableFuture<NodeOps.LockNode> created = ops.createSharedInBackground(parent, request);
        List<String> children;
        try {
            children = ops.children(parent, request.name()); // answered after the create
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
            node = ops.createShared(parent, request); // the server reaped the key's node Curator had just made
        }
        try {
            node = ops.withToken(node, request.name());
            if (!children.contains(node.name())) {
                sent = context.ticker().nanoTime();
                children = ops.children(parent, request.name());
            }
        } catch (RuntimeException e) {
            ops.deleteInBackground(node.path());
            throw e;
        }
        return new Joined(node, children, sent);
    }

    /**
     * Creates a node and lists the queue (one round trip) and, if the node holds, marks it granted
     * (two in all); if it does not, deletes it (two as well).
     */
    AcquireResult tryAcquire(AcquireRequest request) {
        String parent = SharedPaths.parent(request.hold(), request.key());
        Joined joined = join(parent, request);
        NodeOps.LockNode node = joined.node();
        Standing standing;
        try {
            List<String> children = joined.children();
            checkSession(node, request);
            deleteStrays(node, children);
            standing = Standing.of(SharedPaths.parse(node.name()), children);
            if (standing.state() == Standing.State.HOLDS) {
                return HeldNode.holdShared(ops, context.events(), request, node, ops.markGranted(node.path(), request));
            }
        } catch (RuntimeException e) {
            ops.deleteInBackground(node.path());
            throw e;
        }
        ops.delete(node.path(), request.name()); // at once: a node left in the queue would be granted to no one
        if (standing.state() == Standing.State.MISMATCH) {
            throw mismatch(request, standing);
        }
        return Held.UNKNOWN; // the holders' leases are their sessions, which no one else can read
    }

    /**
     * Joins the queue: the node is created and the queue first looked at here, so that a mismatch
     * is thrown to the caller. A server that cannot be reached fails the ticket, as it would later;
     * any other failure is thrown.
     */
    @Override
    public Ticket enqueue(AcquireRequest request) {
        SharedWaiter w = new SharedWaiter(request, SharedPaths.parent(request.hold(), request.key()));
        Joined joined;
        try {
            joined = join(w.parent, request);
        } catch (LockBackendException e) {
            if (!Failures.isConnection(e)) {
                throw e;
            }
            w.granted.completeExceptionally(e);
            return w;
        }
        waiting.add(w);
        try {
            w.firstLook(joined);
        } catch (PermitMismatchException e) {
            waiting.remove(w);
            try {
                ops.delete(w.node.path(), request.name()); // gone before the caller hears of the mismatch
            } catch (LockBackendException unreachable) {
                // deleted after the next reconnection, or with the session
            }
            throw e;
        }
        return w;
    }

    private void checkSession(NodeOps.LockNode node, AcquireRequest request) {
        if (node.session() != ops.sessionId()) {
            // the session that made the node ended meanwhile: its node goes with it, so it may not hold
            throw Failures.of(
                    "queueing for '" + request.name() + "'",
                    ops.description(),
                    new KeeperException.SessionExpiredException());
        }
    }

    /** Deletes nodes a retrying client's first try made with our node's protection prefix. */
    private void deleteStrays(NodeOps.LockNode node, List<String> children) {
        String protection = SharedPaths.parse(node.name()).protection();
        for (String child : children) {
            if (child.startsWith(protection) && !child.equals(node.name())) {
                ops.deleteInBackground(node.lockPath() + "/" + child);
            }
        }
    }

    private PermitMismatchException mismatch(AcquireRequest request, Standing standing) {
        return new PermitMismatchException(
                request.name(), standing.heldPermits(), request.hold().permits(), ops.description());
    }

    private final class SharedWaiter extends Waiter {
        final String parent;
        /** One watcher for every node this waiter watches: a change to any of them makes it look again. */
        final Watcher changed = event -> {
            if (event.getType() != Watcher.Event.EventType.None) {
                look();
            }
        };

        SharedWaiter(AcquireRequest request, String parent) {
            super(request);
            this.parent = parent;
        }

        @Override
        String what() {
            return request.hold() + " of '" + request.name() + "'";
        }

        @Override
        void look() {
            context.scheduler().execute(() -> {
                try {
                    check();
                } catch (PermitMismatchException e) {
                    fail(e); // cannot happen after the first look, which enqueue() made; an operator's doing
                }
            });
        }

        /** The look enqueue() makes, on the listing that rode with the create. */
        synchronized void firstLook(Joined joined) {
            node = joined.node();
            stand(joined.children(), joined.sentAtNanos());
        }

        /** Lists the queue again. */
        synchronized void check() {
            if (cancelled || granted.isDone()) {
                return;
            }
            long sent = context.ticker().nanoTime();
            List<String> children;
            try {
                children = ops.children(parent, request.name());
            } catch (LockBackendException e) {
                log.debug("waiting for '{}' on {} failed: {}", request.name(), ops.description(), e.getMessage());
                fail(e);
                return;
            }
            stand(children, sent);
        }

        /** Holds if our node's standing says so; otherwise watches what can change it. */
        private void stand(List<String> children, long sent) {
            try {
                checkSession(node, request);
                if (!children.contains(node.name())) {
                    fail(new LockBackendException("queueing for '" + request.name() + "' failed on " + ops.description()
                            + ": its node " + node.path() + " was removed"));
                    return;
                }
                deleteStrays(node, children);
                Standing standing = Standing.of(SharedPaths.parse(node.name()), children);
                switch (standing.state()) {
                    case HOLDS -> {
                        long token = ops.markGranted(node.path(), request);
                        waiting.remove(this);
                        // the listing, answered on the node's session, confirmed it; if cancelled
                        // meanwhile, the core releases the grant
                        granted.complete(HeldNode.holdShared(ops, context.events(), request, node, token)
                                .confirmedAt(sent));
                    }
                    case MISMATCH -> throw mismatch(request, standing);
                    case WAITS -> watch(standing);
                }
            } catch (LockBackendException e) {
                log.debug("waiting for '{}' on {} failed: {}", request.name(), ops.description(), e.getMessage());
                fail(e);
            }
        }

        private void watch(Standing standing) {
            List<String> paths = new ArrayList<>(standing.watch().size());
            for (String name : standing.watch()) {
                paths.add(parent + "/" + name);
            }
            for (Stat stat : ops.watchChanges(paths, changed, request.name())) {
                if (stat == null || (standing.untilGranted() && stat.getMzxid() != stat.getCzxid())) {
                    look(); // it changed between listing and watching
                    return;
                }
            }
        }
    }
}
