package io.locksmith.zookeeper;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps Curator's connection states onto the locks this client holds:
 *
 * <ul>
 *   <li>SUSPENDED (the connection dropped; the session may live on): the locks stay held for the
 *       grace, then are reported lost ({@code SESSION_LOST}) unless the connection came back. The
 *       default grace is the session timeout, which leaves the decision to the core's deadline: a
 *       handle's deadline counts from the send of its last renewal, a round trip on the session,
 *       and the server keeps the session at least a session timeout from that request, so the
 *       handle stops being held no later than the server could end the session. A connection
 *       cut shorter than the lease then loses nothing;
 *   <li>RECONNECTED: the same session goes on and so do its locks; waiters look at their queues again
 *       (and fail if the session is a new one); nodes that could not be deleted are tried again;
 *   <li>LOST (the session expired, or Curator concluded it must have): every lock is lost.
 * </ul>
 *
 * The core's own deadline (the lease counted from the last confirmed renewal) applies in any case.
 */
final class SessionPolicy implements ConnectionStateListener {

    private static final Logger log = LoggerFactory.getLogger(SessionPolicy.class);

    private final HeldNodes held;
    private final LockQueue queue;
    private final Leftovers leftovers;
    private final ScheduledExecutorService timer;
    private final long graceNanos;
    private final String description;
    private final AtomicLong connection = new AtomicLong();

    SessionPolicy(HeldNodes held, LockQueue queue, Leftovers leftovers, ScheduledExecutorService timer, Duration grace,
            String description) {
        this.held = held;
        this.queue = queue;
        this.leftovers = leftovers;
        this.timer = timer;
        this.graceNanos = grace.toNanos();
        this.description = description;
    }

    @Override
    public void stateChanged(CuratorFramework client, ConnectionState state) {
        switch (state) {
            case SUSPENDED, READ_ONLY -> suspended(connection.incrementAndGet());
            case RECONNECTED, CONNECTED -> {
                connection.incrementAndGet();
                queue.reconnected();
                leftovers.retry();
            }
            case LOST -> {
                connection.incrementAndGet();
                if (held.size() > 0) {
                    log.warn("the ZooKeeper session of {} ended: {} lock(s) lost", description, held.size());
                }
                held.loseAll();
            }
            default -> { }
        }
    }

    private void suspended(long at) {
        try {
            timer.schedule(() -> {
                if (connection.get() == at && held.size() > 0) {
                    log.warn("the connection to {} has been down for {} ms: the session may have expired, {} lock(s)"
                            + " lost", description, TimeUnit.NANOSECONDS.toMillis(graceNanos), held.size());
                    held.loseAll();
                }
            }, graceNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closing
        }
    }
}
