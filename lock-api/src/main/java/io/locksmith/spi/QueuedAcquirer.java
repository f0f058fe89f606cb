package io.locksmith.spi;

import java.util.concurrent.CompletableFuture;

/**
 * A backend's native queue for waiters (etcd revisions, ZooKeeper sequence nodes): a waiter
 * enqueues once and is granted in order, without polling.
 */
public interface QueuedAcquirer {

    /**
     * Joins the queue for a key.
     *
     * @param request the acquisition
     * @return the place in the queue
     */
    Ticket enqueue(AcquireRequest request);

    /** A place in a backend's queue. */
    interface Ticket {
        /**
         * @return completed with the grant when the ticket reaches the head of the queue, or
         *     exceptionally with a {@link io.locksmith.LockBackendException} when the ticket can
         *     no longer be granted (its entry or lease is gone, the backend is unreachable); the
         *     core then cancels it and, while the caller's wait lasts, enqueues again after a
         *     back-off. A grant says when its lease was last confirmed ({@link Grant#confirmedAt(long)})
         *     or the core renews it once before handing it out.
         */
        CompletableFuture<Grant> granted();

        /**
         * Leaves the queue. If the grant was already made, the core releases it; the backend only
         * needs to remove a waiting entry.
         */
        void cancel();
    }
}
