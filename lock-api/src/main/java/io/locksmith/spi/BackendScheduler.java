package io.locksmith.spi;

import java.time.Duration;

/**
 * The client's scheduler, shared with its backend: a backend schedules its periodic and delayed
 * work here (a clean-up sweep, a re-watch after a back-off) instead of starting a timer thread of
 * its own. Every task runs on the client's worker threads, never on its timer thread, so a task
 * may call the server. After the client closes, scheduling does nothing and returns a cancelled
 * task.
 */
public interface BackendScheduler {

    /**
     * Runs a task once after a delay.
     *
     * @param task the task
     * @param delay how long from now, by the client's {@link Ticker}
     * @return the scheduled task
     */
    Scheduled schedule(Runnable task, Duration delay);

    /**
     * Runs a task every period, the first time one period from now; a run that throws is logged
     * and the next runs on time. Runs never overlap.
     *
     * @param task the task
     * @param period the time between the starts of two runs
     * @return the scheduled task; cancelling it stops the runs
     */
    Scheduled every(Runnable task, Duration period);

    /**
     * Runs a task as soon as a worker is free.
     *
     * @param task the task
     */
    void execute(Runnable task);

    /** A task scheduled to run later. */
    interface Scheduled {
        /** Stops it; a run in progress finishes. Idempotent. */
        void cancel();
    }
}
