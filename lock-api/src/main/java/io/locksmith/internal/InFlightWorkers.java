package io.locksmith.internal;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Workers that know how many of their tasks are queued or running, for a client on a hand-moved
 * clock: a test moves the clock, then waits until the work that fell due has run.
 */
final class InFlightWorkers extends AbstractExecutorService {

    private final ExecutorService pool;
    private final AtomicInteger inFlight = new AtomicInteger();

    InFlightWorkers(ExecutorService pool) {
        this.pool = pool;
    }

    /** @return whether no task is queued or running */
    boolean idle() {
        return inFlight.get() == 0;
    }

    @Override
    public void execute(Runnable task) {
        inFlight.incrementAndGet();
        try {
            pool.execute(() -> {
                try {
                    task.run();
                } finally {
                    inFlight.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            inFlight.decrementAndGet();
            throw e;
        }
    }

    @Override
    public void shutdown() {
        pool.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        return pool.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return pool.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return pool.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return pool.awaitTermination(timeout, unit);
    }
}
