package io.locksmith.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's worker threads: everything that may call the backend or run a user's code (attempts,
 * renewals, loss callbacks, dependent stages) runs here, never on the timer's one thread.
 */
final class Workers {

    private static final Logger log = LoggerFactory.getLogger(Workers.class);

    private final ExecutorService pool;
    private final String threadPrefix;

    /**
     * @param pool the workers
     * @param threadPrefix how the names of the pool's threads begin
     */
    Workers(ExecutorService pool, String threadPrefix) {
        this.pool = pool;
        this.threadPrefix = threadPrefix;
    }

    /**
     * Runs work on a worker; if the workers are shut down (the client is closing), runs it here
     * rather than drop it.
     */
    void run(Runnable work) {
        try {
            pool.execute(work);
        } catch (RejectedExecutionException e) {
            work.run();
        }
    }

    /**
     * @throws RejectedExecutionException if the workers are shut down
     */
    void execute(Runnable work) {
        pool.execute(work);
    }

    /** Runs callbacks, each on its own so that one that throws spoils no other. */
    void callbacks(java.util.List<Runnable> callbacks, String lockName) {
        for (Runnable r : callbacks) {
            run(() -> {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    log.warn("a loss callback of lock '{}' threw", lockName, e);
                }
            });
        }
    }

    /** @return whether no task is queued or running; only for workers on a hand-moved clock */
    boolean idle() {
        return ((InFlightWorkers) pool).idle();
    }

    void shutdown() {
        pool.shutdown();
    }

    /**
     * After {@link #shutdown()}: waits until the work in flight and queued has run, at most
     * {@code max}; at once if called on a worker (a callback closing its client), which would
     * otherwise wait for itself.
     *
     * @return whether it all ran
     */
    boolean awaitQuiet(java.time.Duration max) {
        if (Thread.currentThread().getName().startsWith(threadPrefix)) {
            return false;
        }
        try {
            return pool.awaitTermination(max.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void shutdownNow() {
        pool.shutdownNow();
    }
}
