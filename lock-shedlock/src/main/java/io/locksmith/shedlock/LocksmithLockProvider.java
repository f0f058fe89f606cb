package io.locksmith.shedlock;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock {@link net.javacrumbs.shedlock.core.LockProvider} over any Locksmith client, so that
 * {@code @SchedulerLock} jobs keep their annotations and run on any Locksmith backend, with a
 * fencing token and loss reports. Swap the provider bean and nothing else:
 *
 * <pre>{@code
 * @Bean
 * LockProvider lockProvider(LockClient locks) {
 *     return new LocksmithLockProvider(locks);
 * }
 * }</pre>
 *
 * <p>What ShedLock's settings mean here:
 * <ul>
 * <li>{@link #lock(LockConfiguration)} tries once for the lock named
 *     {@link LockConfiguration#getName()} (ShedLock never waits) and holds it for a lease of
 *     {@code lockAtMostFor}, <em>not renewed</em>: a job that runs longer loses the lock, which
 *     its handle reports ({@link LockHandle#onLost}), and another instance may take it. Where
 *     the backend counted the grant's lease from before the attempt (etcd's shared leases), one
 *     {@link LockHandle#extend} counts it from now, so the lock lasts {@code lockAtMostFor};</li>
 * <li>{@link SimpleLock#unlock()} keeps the lock until {@code lockAtLeastFor} has passed since
 *     {@code lock} was called: at once if it has, else at that moment, by a timer in this process
 *     (the lease of {@code lockAtMostFor} covers it, so nothing is asked of the backend, and a
 *     remainder shorter than the backend's minimum lease is kept exactly too);</li>
 * <li>{@link SimpleLock#extend} moves the lease's end to {@code lockAtMostFor} from now (one
 *     {@link LockHandle#extend} call) and counts {@code lockAtLeastFor} from now; it returns empty
 *     once the lock is lost, its lease has run out, or it was unlocked.</li>
 * </ul>
 *
 * <p>While a job runs, the thread that took its lock can read the grant's fencing token with
 * {@link #currentToken()}, to pass along with its writes, and the handle with {@link #currentLock()}.
 *
 * <p>Closing the client releases every lock it holds, those kept for {@code lockAtLeastFor}
 * included; close it after the scheduler has stopped. The client's own lease and renewal settings
 * do not apply to these locks; its key prefix does. Instances are immutable and thread-safe.
 */
public final class LocksmithLockProvider implements ExtensibleLockProvider {

    private final LockClient client;

    /**
     * @param client the client whose backend keeps the locks; this provider does not close it
     * @throws NullPointerException if {@code client} is null
     */
    public LocksmithLockProvider(LockClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /**
     * Tries once to take the lock named {@code configuration.getName()} for a lease of
     * {@code lockAtMostFor}, without renewal.
     *
     * @param configuration the job's lock settings, as ShedLock makes them
     * @return the lock, or empty if another owner holds it (or keeps it for its
     *     {@code lockAtLeastFor})
     * @throws LockConfigurationException if the backend cannot keep a lease of {@code lockAtMostFor}
     *     (shorter than its minimum lease, or longer than its maximum)
     * @throws IllegalArgumentException if the name is not a valid lock name (longer than 1,024
     *     characters)
     * @throws io.locksmith.LockBackendException if the backend failed the attempt
     * @throws IllegalStateException if the client is closed
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        Objects.requireNonNull(configuration, "configuration");
        long start = System.nanoTime();
        DistributedLock lock =
                Leases.forJob(client.lock(configuration.getName()).withAutoRenew(false), configuration);
        return lock.tryAcquire().flatMap(handle -> JobLock.taken(handle, configuration, start));
    }

    /**
     * Returns the fencing token of the lock the calling thread took for the job it runs now (the
     * innermost, if it holds several), for the job to pass along with its writes so that the
     * resource can refuse a write from an instance that lost the lock without knowing it.
     *
     * @return the token, or empty if this thread runs no job under a lock of this provider
     */
    public static OptionalLong currentToken() {
        return RunningJobs.current().map(h -> OptionalLong.of(h.fencingToken())).orElseGet(OptionalLong::empty);
    }

    /**
     * Returns the handle of the lock the calling thread took for the job it runs now (the
     * innermost, if it holds several): to ask {@link LockHandle#isHeld()} before a step that must
     * not run twice, or to register {@link LockHandle#onLost} to stop the job. Leave closing it to
     * ShedLock, which unlocks when the job ends.
     *
     * @return the handle, or empty if this thread runs no job under a lock of this provider
     */
    public static Optional<LockHandle> currentLock() {
        return RunningJobs.current();
    }

    @Override
    public String toString() {
        return "LocksmithLockProvider[" + client.backend() + "]";
    }
}
