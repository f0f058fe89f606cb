package io.locksmith.internal;

import io.locksmith.spi.BackendScheduler.Scheduled;
import io.locksmith.spi.Ticker;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A client's time: the readings every local deadline is counted in, and the timer that runs what
 * falls due. Timer tasks must be quick and never call the backend; they hand real work to the
 * workers. The system clock has one timer thread per client; tests inject a clock they move by hand,
 * so that the core's deadlines, renewals and back-offs run without real-time waits.
 */
interface CoreClock extends Ticker {

    /**
     * @param task what to run on the timer
     * @param delayNanos how long from now
     * @return the scheduled task
     * @throws RejectedExecutionException if the clock was shut down (the client is closing)
     */
    Scheduled schedule(Runnable task, long delayNanos);

    /** Stops the timer; later {@link #schedule} calls are rejected. */
    void shutdown();

    /**
     * @param threadName the timer thread's name
     * @return the system's monotonic clock with a timer thread of its own
     */
    static CoreClock system(String threadName) {
        return new SystemClock(threadName);
    }

    /** {@link System#nanoTime()} and a one-thread scheduled executor. */
    final class SystemClock implements CoreClock {
        private final ScheduledThreadPoolExecutor timer;

        SystemClock(String threadName) {
            timer = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
            timer.setRemoveOnCancelPolicy(true);
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public Scheduled schedule(Runnable task, long delayNanos) {
            ScheduledFuture<?> f = timer.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
            return () -> f.cancel(false);
        }

        @Override
        public void shutdown() {
            timer.shutdownNow();
        }
    }
}
