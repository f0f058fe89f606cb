package io.locksmith.internal;

import io.locksmith.spi.BackendScheduler;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The client's timer and workers as its backend sees them: tasks are timed by the clock and run on a worker. */
final class ClientScheduler implements BackendScheduler {

    private static final Logger log = LoggerFactory.getLogger(ClientScheduler.class);

    private final CoreClock clock;
    private final Workers workers;
    private final Supplier<String> backend;

    ClientScheduler(CoreClock clock, Workers workers, Supplier<String> backend) {
        this.clock = clock;
        this.workers = workers;
        this.backend = backend;
    }

    @Override
    public Scheduled schedule(Runnable task, Duration delay) {
        try {
            return clock.schedule(() -> workers.run(guarded(task)), delay.toNanos());
        } catch (RejectedExecutionException closing) {
            return () -> {};
        }
    }

    @Override
    public Scheduled every(Runnable task, Duration period) {
        AtomicBoolean running = new AtomicBoolean();
        Runnable once = guarded(() -> {
            if (running.compareAndSet(false, true)) {
                try {
                    task.run();
                } finally {
                    running.set(false);
                }
            }
        });
        Periodic p = new Periodic(once, period.toNanos());
        p.next();
        return p;
    }

    @Override
    public void execute(Runnable task) {
        try {
            workers.execute(guarded(task));
        } catch (RejectedExecutionException closing) {
            // the client is closed: the backend's work is over
        }
    }

    private Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                log.warn("a scheduled task of {} failed; it runs again if it is periodic", backend.get(), e);
            }
        };
    }

    /** A periodic task: due every period from the last due time, each run on a worker. */
    private final class Periodic implements Scheduled {
        private final Runnable task;
        private final long periodNanos;
        private long due = clock.nanoTime();
        private Scheduled next;
        private boolean cancelled;

        Periodic(Runnable task, long periodNanos) {
            this.task = task;
            this.periodNanos = periodNanos;
        }

        synchronized void next() {
            if (cancelled) {
                return;
            }
            due += periodNanos;
            try {
                next = clock.schedule(
                        () -> {
                            workers.run(task);
                            next();
                        },
                        due - clock.nanoTime());
            } catch (RejectedExecutionException closing) {
                cancelled = true;
            }
        }

        @Override
        public synchronized void cancel() {
            cancelled = true;
            if (next != null) {
                next.cancel();
            }
        }
    }
}
