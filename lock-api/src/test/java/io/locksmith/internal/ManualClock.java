package io.locksmith.internal;

import io.locksmith.spi.BackendScheduler.Scheduled;
import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that stands still until a test moves it: deadlines, renewal ticks, back-offs and wait
 * timeouts fall due only in {@link #advance}, which runs every task due by then, in time order, on
 * the test's thread (timer tasks only hand work to the client's workers).
 */
final class ManualClock implements CoreClock {

    private record Task(long due, long seq, Runnable run, boolean[] cancelled) {}

    private final PriorityQueue<Task> tasks =
            new PriorityQueue<>((a, b) -> a.due != b.due ? Long.compare(a.due, b.due) : Long.compare(a.seq, b.seq));
    private final AtomicLong seq = new AtomicLong();
    private volatile long now = 1_000_000_000L;
    private boolean shutdown;

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public synchronized Scheduled schedule(Runnable task, long delayNanos) {
        if (shutdown) {
            throw new RejectedExecutionException("the clock is shut down");
        }
        boolean[] cancelled = {false};
        tasks.add(new Task(now + Math.max(0, delayNanos), seq.incrementAndGet(), task, cancelled));
        return () -> {
            synchronized (ManualClock.this) {
                cancelled[0] = true;
            }
        };
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
        tasks.clear();
    }

    /** Moves the clock forward, running each task as its time comes. */
    void advance(Duration by) {
        long until = now + by.toNanos();
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.peek();
                if (next == null || next.due - until > 0) {
                    if (until - now > 0) { // a jump() meanwhile may have moved it further
                        now = until;
                    }
                    return;
                }
                tasks.poll();
                if (next.due - now > 0) {
                    now = next.due;
                }
                if (next.cancelled[0]) {
                    continue;
                }
            }
            next.run.run();
        }
    }

    /**
     * Moves the clock forward without running the tasks that fall due, as time passes during a
     * slow backend call; they run in the next {@link #advance}.
     */
    synchronized void jump(Duration by) {
        now += by.toNanos();
    }

    /** @return how many tasks are waiting for their time */
    synchronized int pending() {
        return (int) tasks.stream().filter(t -> !t.cancelled[0]).count();
    }
}
