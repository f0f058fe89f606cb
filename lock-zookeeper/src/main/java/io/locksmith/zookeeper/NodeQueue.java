package io.locksmith.zookeeper;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Grant;
import io.locksmith.spi.QueuedAcquirer;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the lock queue ({@link LockQueue}) and the shared-hold queue ({@link SharedQueue}) have in
 * common: the client's waiters, each a node in a queue, and how a waiter's ticket ends.
 *
 * <p>A waiter's steps after it joined run on the client's workers ({@link BackendContext#scheduler()}),
 * one at a time: each holds the waiter's monitor, which only another step of the same waiter ever
 * waits for (a watch and a reconnection may both ask it to look again). Cancelling only sets a
 * flag and hands the clean-up to a worker.
 */
abstract class NodeQueue implements QueuedAcquirer {

    final NodeOps ops;
    final BackendContext context;
    final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();

    NodeQueue(NodeOps ops, BackendContext context) {
        this.ops = ops;
        this.context = context;
    }

    /** After a reconnection every waiter looks again: a new session fails the waiters of the old one. */
    final void reconnected() {
        for (Waiter w : waiting) {
            w.look();
        }
    }

    /** Fails every waiter: the client is closing. */
    final void close() {
        for (Waiter w : waiting) {
            w.granted.completeExceptionally(new LockBackendException(
                    "the lock client for " + ops.description() + " was closed while waiting for " + w.what()));
        }
        waiting.clear();
    }

    final int size() {
        return waiting.size();
    }

    /** One waiter's ticket: its node, once created, and the grant it waits for. */
    abstract class Waiter implements Ticket {
        final AcquireRequest request;
        final CompletableFuture<Grant> granted = new CompletableFuture<>();
        volatile boolean cancelled;
        NodeOps.LockNode node; // guarded by the waiter's monitor once enqueue() returned

        Waiter(AcquireRequest request) {
            this.request = request;
        }

        /** Looks at the queue again, on a worker; once the client is closed, close() has failed the waiter. */
        abstract void look();

        /** @return what the waiter waits for, for messages */
        abstract String what();

        /** Ends the ticket: the core decides whether to queue again (it does while the caller's wait lasts). */
        final void fail(RuntimeException e) {
            waiting.remove(this);
            ops.deleteInBackground(node.path());
            granted.completeExceptionally(e);
        }

        @Override
        public final CompletableFuture<Grant> granted() {
            return granted;
        }

        @Override
        public final void cancel() {
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
