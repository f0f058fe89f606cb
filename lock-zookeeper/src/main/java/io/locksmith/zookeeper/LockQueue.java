package io.locksmith.zookeeper;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Grant;
import io.locksmith.spi.QueuedAcquirer;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZooKeeper's native queue: a waiter's ephemeral sequential node takes its place, the lowest node
 * holds, and each waiter watches only the node just ahead of it, so a release wakes exactly one
 * waiter (no herd) and waiters are granted in arrival order.
 *
 * <p>A ticket fails, and leaves its node to be deleted, when it cannot be granted: the server
 * cannot be reached, or the client's session is no longer the one that made the node (a node of
 * an ended session goes when the server expires that session, so holding with it could overlap
 * the next holder). The core then enqueues again while the caller's wait lasts.
 *
 * <p>A waiter's steps after it joined run on the client's workers ({@link BackendContext#scheduler()}),
 * one at a time: each holds the waiter's monitor, which only another step of the same waiter ever
 * waits for (a watch and a reconnection may both ask it to look again). Cancelling only sets a
 * flag and hands the clean-up to a worker.
 */
final class LockQueue implements QueuedAcquirer {

    private static final Logger log = LoggerFactory.getLogger(LockQueue.class);

    private final NodeOps ops;
    private final BackendContext context;
    private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();

    LockQueue(NodeOps ops, BackendContext context) {
        this.ops = ops;
        this.context = context;
    }

    /**
     * Joins the queue: the node is created here. A server that cannot be reached fails the ticket,
     * as it would later; any other failure (not authorized, say) is thrown.
     */
    @Override
    public Ticket enqueue(AcquireRequest request) {
        Waiter w = new Waiter(request, LockPaths.lock(request.key()));
        try {
            w.node = ops.create(w.lockPath, request);
        } catch (LockBackendException e) {
            if (!Failures.isConnection(e)) {
                throw e;
            }
            w.granted.completeExceptionally(e);
            return w;
        }
        waiting.add(w);
        w.look();
        return w;
    }

    /** After a reconnection every waiter looks again: a new session fails the waiters of the old one. */
    void reconnected() {
        for (Waiter w : waiting) {
            w.look();
        }
    }

    /** Fails every waiter: the client is closing. */
    void close() {
        for (Waiter w : waiting) {
            w.granted.completeExceptionally(new LockBackendException("the lock client for " + ops.description()
                    + " was closed while waiting for lock '" + w.request.name() + "'"));
        }
        waiting.clear();
    }

    int size() {
        return waiting.size();
    }

    private final class Waiter implements Ticket {
        final AcquireRequest request;
        final String lockPath;
        final CompletableFuture<Grant> granted = new CompletableFuture<>();
        volatile boolean cancelled;
        NodeOps.LockNode node; // guarded by the waiter's monitor once enqueue() returned

        Waiter(AcquireRequest request, String lockPath) {
            this.request = request;
            this.lockPath = lockPath;
        }

        /** Looks at the queue again, on a worker; once the client is closed, close() has failed the waiter. */
        void look() {
            context.scheduler().execute(this::check);
        }

        /**
         * Holds if ours is the lowest node of the client's current session; otherwise watches the
         * one just ahead and looks again when it goes.
         */
        private synchronized void check() {
            if (cancelled || granted.isDone()) {
                return;
            }
            try {
                long sent = context.ticker().nanoTime();
                List<String> children = ops.children(lockPath, request.name());
                if (node.session() != ops.sessionId()) {
                    fail(new LockBackendException("queueing for lock '" + request.name() + "' failed on "
                            + ops.description() + ": the ZooKeeper session that queued it ended"));
                    return;
                }
                if (!children.contains(node.name())) {
                    // our node is gone (an operator removed it): queue again, at the back
                    node = ops.create(lockPath, request);
                    sent = context.ticker().nanoTime();
                    children = ops.children(lockPath, request.name());
                }
                ops.deleteStrays(node, children);
                Optional<String> ahead = LockPaths.predecessor(node.name(), children);
                if (ahead.isEmpty()) {
                    waiting.remove(this);
                    // the listing, answered on the node's session, is the last word the server had from it;
                    // if cancelled meanwhile, the core releases the grant
                    granted.complete(
                            HeldNode.hold(ops, context.events(), request, node).confirmedAt(sent));
                    return;
                }
                if (!ops.watch(lockPath + "/" + ahead.get(), event -> look(), request.name())) {
                    look(); // it went between listing and watching
                }
            } catch (LockBackendException e) {
                log.debug("waiting for lock '{}' on {} failed: {}", request.name(), ops.description(), e.getMessage());
                fail(e);
            }
        }

        /** Ends the ticket: the core decides whether to queue again (it does while the caller's wait lasts). */
        private void fail(LockBackendException e) {
            waiting.remove(this);
            ops.deleteInBackground(node.path());
            granted.completeExceptionally(e);
        }

        @Override
        public CompletableFuture<Grant> granted() {
            return granted;
        }

        @Override
        public void cancel() {
            cancelled = true;
            waiting.remove(this);
            context.scheduler().execute(() -> {
                synchronized (this) {
                    if (!granted.isDone() && node != null) {
                        ops.deleteInBackground(node.path());
                    }
                }
            }); // once the client is closed, the session's end deletes the node
        }
    }
}
