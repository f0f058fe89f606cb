package io.locksmith.shedlock;

import io.locksmith.LockHandle;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The locks of the jobs each thread runs now, innermost first: what
 * {@link LocksmithLockProvider#currentToken()} reads. ShedLock takes a job's lock, runs the job
 * and unlocks it on one thread, so a thread-local fits; the deque is a concurrent one all the
 * same, since nothing stops a caller from unlocking on another thread, and the thread's entry is
 * dropped when its last job ends, so that pooled threads keep nothing.
 */
final class RunningJobs {

    private static final ThreadLocal<Deque<LockHandle>> JOBS = new ThreadLocal<>();

    private RunningJobs() {}

    /** @return the innermost job's lock on this thread */
    static Optional<LockHandle> current() {
        Deque<LockHandle> jobs = JOBS.get();
        return jobs == null ? Optional.empty() : Optional.ofNullable(jobs.peekFirst());
    }

    /** Records that this thread runs a job under {@code handle}; {@link Entry#leave()} ends it. */
    static Entry enter(LockHandle handle) {
        Deque<LockHandle> jobs = JOBS.get();
        if (jobs == null) {
            jobs = new ConcurrentLinkedDeque<>();
            JOBS.set(jobs);
        }
        jobs.addFirst(handle);
        return new Entry(jobs, handle);
    }

    /** One job's place on its thread. */
    static final class Entry {
        private final Deque<LockHandle> jobs;
        private final LockHandle handle;

        private Entry(Deque<LockHandle> jobs, LockHandle handle) {
            this.jobs = jobs;
            this.handle = handle;
        }

        /** Ends the job's place; idempotent. */
        void leave() {
            jobs.removeFirstOccurrence(handle);
            if (jobs.isEmpty() && JOBS.get() == jobs) {
                JOBS.remove();
            }
        }
    }
}
