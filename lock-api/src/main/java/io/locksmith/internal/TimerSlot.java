package io.locksmith.internal;

import io.locksmith.spi.BackendScheduler.Scheduled;
import java.util.concurrent.RejectedExecutionException;

/**
 * One timer task that runs no later than the earliest time asked of it: the renewal tick and the
 * expiry sweep each serve every held lock of a client through one of these, whatever their number.
 */
final class TimerSlot {

    private final CoreClock clock;
    private final Runnable task;
    private volatile boolean scheduled;
    private volatile long at;
    private Scheduled pending;

    /**
     * @param clock the client's clock
     * @param task what runs on the timer when the slot falls due; it calls {@link #fired()} first
     */
    TimerSlot(CoreClock clock, Runnable task) {
        this.clock = clock;
        this.task = task;
    }

    /** Makes the task run by {@code when} (a clock reading), unless it already runs by then. */
    void by(long when) {
        if (scheduled && when - at >= 0) {
            return; // the common case: a task already runs early enough
        }
        synchronized (this) {
            if (scheduled && when - at >= 0) {
                return;
            }
            if (pending != null) {
                pending.cancel();
            }
            at = when;
            try {
                pending = clock.schedule(task, when - clock.nanoTime());
                scheduled = true;
            } catch (RejectedExecutionException e) {
                scheduled = false; // the client is closing
            }
        }
    }

    /** Notes that the task began: the next {@link #by} schedules it again. */
    synchronized void fired() {
        scheduled = false;
        pending = null;
    }

    synchronized void cancel() {
        if (pending != null) {
            pending.cancel();
        }
        scheduled = false;
    }
}
