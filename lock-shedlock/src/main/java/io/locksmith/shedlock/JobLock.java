package io.locksmith.shedlock;

import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LockNotHeldException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A job's lock as ShedLock sees it: one Locksmith handle, and the configuration it was taken or
 * last extended with. ShedLock's base class makes each instance good for one {@code unlock} or one
 * {@code extend} (which hands on the same handle in a new instance), and throws
 * {@link IllegalStateException} after that.
 *
 * <p>{@code lockAtLeastFor} is kept by closing the handle late, on the JDK's shared delay timer:
 * the handle's lease of {@code lockAtMostFor}, never shorter, covers the wait on the backend, so
 * the wait costs no backend call and is exact whatever the backend's minimum lease. The close
 * itself runs on the common pool (or a thread of its own where that pool has one thread); it is one
 * release call, bounded by the backend's operation timeout.
 */
final class JobLock extends AbstractSimpleLock {

    private final LockHandle handle;
    private final long startNanos;
    private final RunningJobs.Entry job;

    private JobLock(LockHandle handle, LockConfiguration configuration, long startNanos, RunningJobs.Entry job) {
        super(configuration);
        this.handle = handle;
        this.startNanos = startNanos;
        this.job = job;
    }

    /**
     * Makes a new grant a job's lock, its lease reaching {@code lockAtMostFor} from the attempt.
     * A backend may count a grant's lease from before the attempt (etcd puts the key on a lease
     * that was last kept alive up to a third of its TTL earlier), so that the lock would end before
     * {@code lockAtMostFor}, and maybe before {@code lockAtLeastFor}; one extend then counts the
     * lease from now. On the other backends the lease counts from the attempt, and nothing is sent.
     *
     * @param startNanos {@link System#nanoTime()} before the attempt: {@code lockAtLeastFor}
     *     counts from there, as ShedLock counts it from the configuration's creation
     * @return the lock, or empty if it was lost before it could be extended
     * @throws io.locksmith.LockBackendException if that extend failed; the grant is released
     */
    static Optional<SimpleLock> taken(LockHandle handle, LockConfiguration configuration, long startNanos) {
        Duration lockAtMostFor = configuration.getLockAtMostFor();
        long shortNanos =
                lockAtMostFor.toNanos() - handle.remainingLease().toNanos() - (System.nanoTime() - startNanos);
        if (shortNanos > 0) {
            try {
                handle.extend(lockAtMostFor);
            } catch (LockNotHeldException e) {
                handle.close();
                return Optional.empty();
            } catch (RuntimeException e) {
                handle.close();
                throw e;
            }
        }
        return Optional.of(new JobLock(handle, configuration, startNanos, RunningJobs.enter(handle)));
    }

    @Override
    protected void doUnlock() {
        job.leave();
        long keepNanos = lockConfiguration.getLockAtLeastFor().toNanos() - (System.nanoTime() - startNanos);
        if (keepNanos <= 0) {
            handle.close();
        } else {
            CompletableFuture.delayedExecutor(keepNanos, TimeUnit.NANOSECONDS).execute(handle::close);
        }
    }

    /**
     * Extends the lease to the new {@code lockAtMostFor} from now.
     *
     * @return the lock under the new configuration, or empty if the lock is no longer held
     * @throws LockConfigurationException if the backend cannot keep the new {@code lockAtMostFor};
     *     the lock stays as it was, and this instance valid
     * @throws io.locksmith.LockBackendException if the backend could not be reached; the lock may
     *     still be held until its current lease ends, and this instance stays valid
     */
    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration next) {
        Leases.requirePositive(next);
        long start = System.nanoTime();
        if (!handle.isHeld()) {
            return gone();
        }
        try {
            handle.extend(next.getLockAtMostFor());
        } catch (LockNotHeldException e) {
            return gone();
        } catch (LockConfigurationException e) {
            throw Leases.refused(next, e);
        }
        return Optional.of(new JobLock(handle, next, start, job));
    }

    private Optional<SimpleLock> gone() {
        job.leave();
        handle.close();
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "JobLock[" + lockConfiguration.getName() + ", token " + handle.fencingToken() + "]";
    }
}
