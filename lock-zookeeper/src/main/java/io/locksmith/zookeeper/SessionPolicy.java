package io.locksmith.zookeeper;

import io.locksmith.LossReason;
import io.locksmith.spi.BackendContext;
import java.time.Duration;
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
 * The locks are the core's ({@link BackendContext#heldLeases()}); for each lock lost the core calls
 * {@code lost}, which deletes its node, so that a session that survives after all leaves no lock
 * behind that no handle owns any more. The grace runs on the client's scheduler.
 */
final class SessionPolicy implements ConnectionStateListener {

    private static final Logger log = LoggerFactory.getLogger(SessionPolicy.class);

    private final BackendContext context;
    private final Runnable reconnected;
    private final Leftovers leftovers;
    private final Duration grace;
    private final String description;
    private final AtomicLong connection = new AtomicLong();

    /** @param reconnected makes every waiter look at its queue again */
    SessionPolicy(
            BackendContext context, Runnable reconnected, Leftovers leftovers, Duration grace, String description) {
        this.context = context;
        this.reconnected = reconnected;
        this.leftovers = leftovers;
        this.grace = grace;
        this.description = description;
    }

    @Override
    public void stateChanged(CuratorFramework client, ConnectionState state) {
        switch (state) {
            case SUSPENDED, READ_ONLY -> suspended(connection.incrementAndGet());
            case RECONNECTED, CONNECTED -> {
                connection.incrementAndGet();
                reconnected.run();
                leftovers.retry();
            }
            case LOST -> {
                connection.incrementAndGet();
                int held = held();
                if (held > 0) {
                    log.warn("the ZooKeeper session of {} ended: {} lock(s) lost", description, held);
                    context.events().allLost(LossReason.SESSION_LOST);
                }
            }
            default -> {}
        }
    }

    private void suspended(long at) {
        context.scheduler()
                .schedule(
                        () -> {
                            int held = held();
                            if (connection.get() == at && held > 0) {
                                log.warn(
                                        "the connection to {} has been down for {} ms: the session may have expired, {} lock(s)"
                                                + " lost",
                                        description,
                                        grace.toMillis(),
                                        held);
                                context.events().allLost(LossReason.SESSION_LOST);
                            }
                        },
                        grace);
    }

    private int held() {
        return context.heldLeases().all().size();
    }
}
