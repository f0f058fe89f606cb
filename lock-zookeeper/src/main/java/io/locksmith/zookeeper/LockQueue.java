package io.locksmith.zookeeper;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.BackendContext;
import java.util.List;
import java.util.Optional;
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
 * How a waiter's steps run is {@link NodeQueue}'s.
 */
final class LockQueue extends NodeQueue {

    private static final Logger log = LoggerFactory.getLogger(LockQueue.class);

    LockQueue(NodeOps ops, BackendContext context) {
        super(ops, context);
    }

    /**
     * Joins the queue: the node is created here. A server that cannot be reached fails the ticket,
     * as it would later; any other failure (not authorized, say) is thrown.
     */
    @Override
    public Ticket enqueue(AcquireRequest request) {
        LockWaiter w = new LockWaiter(request, LockPaths.lock(request.key()));
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

    private final class LockWaiter extends Waiter {
        final String lockPath;

        LockWaiter(AcquireRequest request, String lockPath) {
            super(request);
            this.lockPath = lockPath;
        }

        @Override
        void look() {
            context.scheduler().execute(this::check);
        }

        @Override
        String what() {
            return "lock '" + request.name() + "'";
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
    }
}
