package io.locksmith.zookeeper;

import io.locksmith.LossReason;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.Grant;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * The nodes this client holds locks with. For each it keeps a watch on the node itself, so that a
 * node deleted behind the holder's back is reported lost at once, and the lease: ZooKeeper keeps
 * a node as long as the session lives, so a lease that is not renewed is ended here, by deleting
 * the node, no earlier than the core's own deadline for it.
 */
final class HeldNodes {

    private static final class Entry {
        final String key;
        final String owner;
        volatile long deadlineNanos;
        volatile long expiryNanos; // when the scheduled expiry runs
        volatile java.util.concurrent.ScheduledFuture<?> expiry;

        Entry(String key, String owner, long deadlineNanos) {
            this.key = key;
            this.owner = owner;
            this.deadlineNanos = deadlineNanos;
        }
    }

    private final ConcurrentHashMap<String, Entry> byPath = new ConcurrentHashMap<>();
    private final NodeOps ops;
    private final BackendEvents events;
    private final ScheduledExecutorService timer;

    HeldNodes(NodeOps ops, BackendEvents events, ScheduledExecutorService timer) {
        this.ops = ops;
        this.events = events;
        this.timer = timer;
    }

    /** Records a node that has become the lowest in its queue, watches it, and makes the grant. */
    Grant adopt(NodeOps.LockNode node, AcquireRequest request) {
        Grant grant = record(node, request);
        ops.watchInBackground(node.path(), ownWatch(node.path()), () -> deleted(node.path()));
        return grant;
    }

    /**
     * The watch a holder leaves on its queue's list of children before it knows its own node's
     * name or whether it holds (the uncontended path: no request just for the watch). When it fires
     * — our node deleted, or a waiter arriving — a watch on our own node takes over; it also
     * answers whether the node is still there.
     */
    final class QueueWatch implements Watcher {
        private volatile String path;
        private volatile boolean fired;

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() == Event.EventType.None) {
                return;
            }
            fired = true;
            String p = path;
            if (p != null && byPath.containsKey(p)) {
                ops.watchInBackground(p, ownWatch(p), () -> deleted(p));
            }
        }
    }

    /** @return a watch to leave on a queue's children, for {@link #adoptWatched} */
    QueueWatch queueWatch() {
        return new QueueWatch();
    }

    /** Records a node that holds, the watch on its queue having been left while acquiring. */
    Grant adoptWatched(NodeOps.LockNode node, AcquireRequest request, QueueWatch watch) {
        Grant grant = record(node, request);
        watch.path = node.path();
        if (watch.fired) { // it fired before it knew whose it was
            ops.watchInBackground(node.path(), ownWatch(node.path()), () -> deleted(node.path()));
        }
        return grant;
    }

    private Grant record(NodeOps.LockNode node, AcquireRequest request) {
        // counted from now, after the server's answer: never earlier than the core's deadline
        Entry entry = new Entry(request.key(), request.owner(), System.nanoTime() + request.lease().toNanos());
        byPath.put(node.path(), entry);
        scheduleExpiry(node.path(), entry, request.lease().toNanos());
        return new Grant(node.czxid(), node);
    }

    private Watcher ownWatch(String path) {
        return new Watcher() {
            @Override
            public void process(WatchedEvent event) {
                if (event.getType() == Event.EventType.NodeDeleted) {
                    deleted(path);
                } else if (event.getType() != Event.EventType.None && byPath.containsKey(path)) {
                    ops.watchInBackground(path, this, () -> deleted(path)); // one-shot watch: set it again
                }
            }
        };
    }

    private void deleted(String path) {
        Entry e = byPath.remove(path);
        if (e != null) {
            events.lost(e.key, e.owner, LossReason.OWNERSHIP_LOST);
        }
    }

    /** Stops keeping a node (its owner releases it); @return whether it was kept */
    boolean forget(String path) {
        Entry e = byPath.remove(path);
        if (e != null && e.expiry != null) {
            e.expiry.cancel(false);
        }
        return e != null;
    }

    /**
     * Moves a node's lease end after a renewal confirmed it at {@code confirmedNanos}: later, or
     * earlier when the lease was extended to a shorter one, which needs the expiry moved up.
     */
    void renewed(String path, Duration lease, long confirmedNanos) {
        Entry e = byPath.get(path);
        if (e != null) {
            long deadline = confirmedNanos + lease.toNanos();
            e.deadlineNanos = deadline;
            if (deadline - e.expiryNanos < 0) {
                java.util.concurrent.ScheduledFuture<?> old = e.expiry;
                if (old != null) {
                    old.cancel(false);
                }
                scheduleExpiry(path, e, deadline - System.nanoTime());
            }
        }
    }

    /**
     * Every lock of this client is lost (the session expired, or it can no longer be assumed alive):
     * reports it and deletes the nodes, so that a session that survives after all leaves no lock
     * behind that no handle owns any more.
     */
    void loseAll() {
        boolean any = false;
        for (String path : byPath.keySet()) {
            if (byPath.remove(path) != null) {
                ops.deleteInBackground(path);
                any = true;
            }
        }
        if (any) {
            events.allLost(LossReason.SESSION_LOST);
        }
    }

    int size() {
        return byPath.size();
    }

    private void scheduleExpiry(String path, Entry entry, long delayNanos) {
        try {
            entry.expiryNanos = System.nanoTime() + delayNanos;
            entry.expiry = timer.schedule(() -> expire(path, entry), delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closing: the session's end deletes the node
        }
    }

    private void expire(String path, Entry entry) {
        if (byPath.get(path) != entry) {
            return;
        }
        long left = entry.deadlineNanos - System.nanoTime();
        if (left > 0) {
            scheduleExpiry(path, entry, left); // renewed meanwhile
        } else if (byPath.remove(path, entry)) {
            ops.deleteInBackground(path); // the core has counted the lease as expired already
        }
    }
}
