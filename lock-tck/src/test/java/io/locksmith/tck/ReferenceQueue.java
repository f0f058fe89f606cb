package io.locksmith.tck;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Grant;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.tck.ReferenceSubject.Breakage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The reference provider's FIFO queue of waiters, as etcd and ZooKeeper keep one: a waiter
 * enqueues once and is granted when it reaches the head and the key is free. A grant's lease
 * starts when the server makes it, and the grant says so ({@link Grant#confirmedAt(long)}); its
 * reply reaches the waiter after the client's reply delay. Expired leases are noticed by a
 * 10 ms server tick, as a server's lease expiry would.
 */
final class ReferenceQueue {

    private final ReferenceSubject server;
    private final Breakage breakage;
    private final Map<String, ArrayDeque<Waiter>> queues = new HashMap<>();
    private final List<Waiter> removed = new ArrayList<>(); // kept only to be granted wrongly
    private final ScheduledExecutorService tick = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "reference-queue");
        t.setDaemon(true);
        return t;
    });

    /** One queue entry: whose, for how long a lease, and where its grant goes. */
    private final class Waiter implements QueuedAcquirer.Ticket {
        final ReferenceSubject.Backend client;
        final AcquireRequest request;
        final CompletableFuture<Grant> granted = new CompletableFuture<>();
        boolean cancelled;

        Waiter(ReferenceSubject.Backend client, AcquireRequest request) {
            this.client = client;
            this.request = request;
        }

        @Override
        public CompletableFuture<Grant> granted() {
            return granted;
        }

        @Override
        public void cancel() {
            synchronized (ReferenceQueue.this) {
                cancelled = true;
                if (breakage != Breakage.CANCEL_LEAVES_QUEUE_ENTRY) {
                    ArrayDeque<Waiter> q = queues.get(request.key());
                    if (q != null) {
                        q.remove(this);
                    }
                }
            }
            dispatch(request.key());
        }
    }

    ReferenceQueue(ReferenceSubject server, Breakage breakage) {
        this.server = server;
        this.breakage = breakage;
        tick.scheduleWithFixedDelay(this::dispatchAll, 10, 10, TimeUnit.MILLISECONDS);
    }

    QueuedAcquirer.Ticket enqueue(ReferenceSubject.Backend client, AcquireRequest request) {
        Waiter w = new Waiter(client, request);
        synchronized (this) {
            queues.computeIfAbsent(request.key(), k -> new ArrayDeque<>()).add(w);
        }
        dispatch(request.key());
        return w;
    }

    synchronized boolean hasWaiters(String key) {
        ArrayDeque<Waiter> q = queues.get(key);
        return q != null && !q.isEmpty();
    }

    /** Grants the head of the key's queue if the key is free. */
    void dispatch(String key) {
        List<Runnable> replies = new ArrayList<>();
        synchronized (this) {
            if (breakage == Breakage.GRANTS_A_REMOVED_WAITER && server.isFree(key)) {
                // "nothing queued below me, so the lock is mine", without checking that my entry still exists
                removed.removeIf(w -> {
                    if (!w.request.key().equals(key)) {
                        return false;
                    }
                    replies.add(reply(w, new Grant(server.tokenWithoutEntry(), null).confirmedAt(System.nanoTime())));
                    return true;
                });
            }
            ArrayDeque<Waiter> q = queues.get(key);
            if (q != null && !q.isEmpty() && server.isFree(key)) {
                Waiter head = q.poll();
                long grantedAt = System.nanoTime();
                long token = server.take(key, head.request.owner(), head.request.lease());
                if (!head.cancelled) {
                    replies.add(reply(head, new Grant(token, null).confirmedAt(grantedAt)));
                } // else: a stale entry granted to nobody, holding the key for its lease
                if (q.isEmpty()) {
                    queues.remove(key);
                }
            }
        }
        replies.forEach(Runnable::run);
    }

    /** @return the grant's way back to its waiter, after the waiter's reply delay */
    private Runnable reply(Waiter w, Grant grant) {
        long delay = w.client.replyDelayNanos;
        return () -> tick.schedule(
                () -> {
                    Grant sent = breakage == Breakage.QUEUED_GRANT_CONFIRMED_AT_REPLY
                            ? grant.confirmedAt(System.nanoTime())
                            : grant;
                    w.granted.complete(sent);
                },
                delay,
                TimeUnit.NANOSECONDS);
    }

    private void dispatchAll() {
        List<String> keys;
        synchronized (this) {
            keys = new ArrayList<>(queues.keySet());
        }
        keys.forEach(this::dispatch);
    }

    /** Removes every waiter's entry for the key; their tickets fail, as a waiter that finds its entry gone must. */
    void removeEntries(String key) {
        List<Waiter> gone;
        synchronized (this) {
            ArrayDeque<Waiter> q = queues.remove(key);
            gone = q == null ? List.of() : new ArrayList<>(q);
            if (breakage == Breakage.GRANTS_A_REMOVED_WAITER) {
                removed.addAll(gone);
                return;
            }
        }
        gone.forEach(w -> w.granted.completeExceptionally(new LockBackendException(
                "reference backend: queue entry of lock '" + w.request.name() + "' was removed")));
    }

    /** A restart loses every queue; each waiter's ticket fails, and the core queues it again. */
    void restart() {
        List<Waiter> all = new ArrayList<>();
        synchronized (this) {
            queues.values().forEach(all::addAll);
            queues.clear();
        }
        all.forEach(w -> w.granted.completeExceptionally(new LockBackendException("reference backend restarted")));
    }

    void close() {
        tick.shutdownNow();
    }
}
