package io.locksmith.zookeeper;

import io.locksmith.LossReason;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.Grant;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * A grant's attachment: the node it holds with, and the watch on that node, so that a node deleted
 * behind the holder's back is reported lost at once rather than at the next renewal. The core
 * keeps the grant, its lease and its deadline; this keeps only what the watch needs to know,
 * whether the grant has ended (released or lost), so that a fired watch is not set again on a
 * node this client let go.
 */
final class HeldNode {

    private final NodeOps ops;
    private final BackendEvents events;
    private final String key;
    private final String owner;
    private final QueueWatch queueWatch = new QueueWatch();
    private final Watcher ownWatch = this::ownNodeChanged;
    private volatile NodeOps.LockNode node;
    private volatile long token;
    private volatile boolean ended;

    private HeldNode(NodeOps ops, BackendEvents events, AcquireRequest request) {
        this.ops = ops;
        this.events = events;
        this.key = request.key();
        this.owner = request.owner();
    }

    /**
     * Starts an acquisition that leaves {@link #queueWatch()} on its queue while it acquires, and
     * holds with {@link #holdWatched} if it comes to hold.
     */
    static HeldNode acquiring(NodeOps ops, BackendEvents events, AcquireRequest request) {
        return new HeldNode(ops, events, request);
    }

    /** A queued waiter's node, now the lowest: watches it and makes the grant. */
    static Grant hold(NodeOps ops, BackendEvents events, AcquireRequest request, NodeOps.LockNode node) {
        HeldNode held = new HeldNode(ops, events, request);
        held.node = node;
        held.token = node.czxid();
        held.watchOwnNode();
        return held.grant();
    }

    /**
     * A semaphore's or read-write lock's node, granted: watches it and makes the grant, whose token
     * is the transaction that marked it granted ({@link NodeOps#markGranted}).
     */
    static Grant holdShared(
            NodeOps ops, BackendEvents events, AcquireRequest request, NodeOps.LockNode node, long token) {
        HeldNode held = new HeldNode(ops, events, request);
        held.node = node;
        held.token = token;
        held.watchOwnNode();
        return held.grant();
    }

    /**
     * The watch a holder leaves on its queue's list of children before it knows its own node's
     * name or whether it holds (the uncontended path: no request just for the watch). When it fires
     * (our node deleted, or a waiter arriving) a watch on our own node takes over; it also answers
     * whether the node is still there.
     */
    Watcher queueWatch() {
        return queueWatch;
    }

    /** Holds with a node that is the lowest, the watch on its queue having been left while acquiring. */
    Grant holdWatched(NodeOps.LockNode lowest) {
        node = lowest;
        token = lowest.czxid();
        if (queueWatch.fired) { // it fired before it knew whose it was
            watchOwnNode();
        }
        return grant();
    }

    /** @return the node's full path */
    String path() {
        return node.path();
    }

    /** Stops watching: the grant is released or lost. Idempotent. */
    void end() {
        ended = true;
    }

    private Grant grant() {
        return new Grant(token, this);
    }

    private final class QueueWatch implements Watcher {
        private volatile boolean fired;

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() == Event.EventType.None) {
                return;
            }
            fired = true;
            if (node != null && !ended) {
                watchOwnNode();
            }
        }
    }

    private void ownNodeChanged(WatchedEvent event) {
        if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
            deleted();
        } else if (event.getType() != Watcher.Event.EventType.None && !ended) {
            watchOwnNode(); // one-shot watch: set it again
        }
    }

    private void watchOwnNode() {
        ops.watchInBackground(node.path(), ownWatch, this::deleted);
    }

    /** Our node is gone: the core counts the grant lost (if it still held it) and tells us through {@code lost}. */
    private void deleted() {
        if (!ended) {
            events.lost(key, owner, LossReason.OWNERSHIP_LOST);
        }
    }

    @Override
    public String toString() {
        NodeOps.LockNode n = node;
        return "HeldNode[" + (n == null ? "acquiring" : n.path()) + "]";
    }
}
