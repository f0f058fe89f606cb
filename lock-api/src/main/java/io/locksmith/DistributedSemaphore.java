package io.locksmith;

import java.time.Duration;
import java.util.List;

/**
 * A counting semaphore shared by every client of the same backend: at most {@link #permits()}
 * holders of its name at a time. Each acquisition takes one permit and gives a {@link LockHandle}
 * with everything a lock's handle has: a lease kept by the backend's clock, automatic renewal
 * batched with the client's other leases, loss reports, and a fencing token strictly greater
 * than that of every earlier grant of the name, whichever permit it held.
 *
 * <pre>{@code
 * DistributedSemaphore calls = locks.semaphore("payment-provider", 3);
 * try (LockHandle permit = calls.acquire(Duration.ofSeconds(5))) {
 *     provider.charge(order);        // at most three of these at once, across all instances
 * }
 * }</pre>
 *
 * <p>Every holder of a name must give the same number of permits: while the semaphore has
 * holders, an acquisition that gives another number fails with {@link PermitMismatchException}
 * naming both. A semaphore's names are its own: the semaphore {@code x}, the lock {@code x} and
 * the read-write lock {@code x} are unrelated.
 */
public interface DistributedSemaphore extends DistributedLock {

    /** @return how many holders the semaphore admits at a time */
    int permits();

    /**
     * Looks at the semaphore without taking a permit.
     *
     * @return one status per permit held, in grant order where the backend knows it
     * @throws UnsupportedOperationException if the backend cannot list a semaphore's holders
     */
    List<LockStatus> holders();

    /**
     * @return held (showing the first holder in grant order) while any permit is held, free while
     *     none is, unknown if the backend cannot list the holders; {@link #holders()} shows them all
     */
    @Override
    LockStatus status();

    @Override
    DistributedSemaphore withLease(Duration lease);

    @Override
    DistributedSemaphore withAutoRenew(boolean autoRenew);
}
