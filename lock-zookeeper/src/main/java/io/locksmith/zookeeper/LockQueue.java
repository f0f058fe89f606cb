package io.locksmith.zookeeper;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Grant;
import io.locksmith.spi.QueuedAcquirer;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
 * <p>All of a waiter's steps after it joined run on the backend's one queue thread, so a waiter's
 * state needs no lock; cancelling only sets a flag and hands the clean-up to that thread.
 */
final class LockQueue implements QueuedAcquirer {

    private static final Logger log = LoggerFactory.getLogger(LockQueue.class);

    private final NodeOps ops;
    private final HeldNodes held;
    private final ScheduledExecutorService thread;
    private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();

    LockQueue(NodeOps ops, HeldNodes held, ScheduledExecutorService thread) {
        this.ops = ops;
        this.held = held;
        this.thread = thread;
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
        w.schedule(0);
        return w;
    }

    /** After a reconnection every waiter looks again: a new session fails the waiters of the old one. */
    void reconnected() {
        for (Waiter w : waiting) {
            w.schedule(0);
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
        NodeOps.LockNode node; // confined to the queue thread once enqueue() returned

        Waiter(AcquireRequest request, String lockPath) {
            this.request = request;
            this.lockPath = lockPath;
        }

        void schedule(long delayMillis) {
            try {
                thread.schedule(this::check, delayMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // the backend is closing; close() fails the waiter
            }
        }

        /**
         * Holds if ours is the lowest node of the client's current session; otherwise watches the
         * one just ahead and looks again when it goes.
         */
        private void check() {
            if (cancelled || granted.isDone()) {
                return;
            }
            try {
                long sent = System.nanoTime();
                List<String> children = ops.children(lockPath, request.name());
                if (node.session() != ops.sessionId()) {
                    fail(new LockBackendException("queueing for lock '" + request.name() + "' failed on "
                            + ops.description() + ": the ZooKeeper session that queued it ended"));
                    return;
                }
                if (!children.contains(node.name())) {
                    // our node is gone (an operator removed it): queue again, at the back
                    node = ops.create(lockPath, request);
                    sent = System.nanoTime();
                    children = ops.children(lockPath, request.name());
                }
                ops.deleteStrays(node, children);
                Optional<String> ahead = LockPaths.predecessor(node.name(), children);
                if (ahead.isEmpty()) {
                    waiting.remove(this);
                    // the listing, answered on the node's session, is the last word the server had from it
                    granted.complete(held.adopt(node, request).confirmedAt(sent)); // if cancelled meanwhile, the core releases it
                    return;
                }
                if (!ops.watch(lockPath + "/" + ahead.get(), event -> schedule(0), request.name())) {
                    schedule(0); // it went between listing and watching
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
            try {
                thread.execute(() -> {
                    if (!granted.isDone() && node != null) {
                        ops.deleteInBackground(node.path());
                    }
                });
            } catch (RejectedExecutionException e) {
                // closing: the session's end deletes the node
            }
        }
    }
}
