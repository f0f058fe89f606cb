package io.locksmith;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Lock;

/**
 * A named lock shared by every client of the same backend. Taking it gives a {@link LockHandle};
 * the lock is held until that handle is closed or the lock is lost.
 *
 * <p>Locks are not reentrant: acquiring a lock that is held waits, even when the holder is the
 * same thread. Instances are immutable, cheap, and safe to share between threads.
 *
 * <p>Waits are {@link Duration}s; {@link Duration#ZERO} means "do not wait". A negative or null
 * wait is rejected.
 */
public interface DistributedLock {

    /** @return the lock's name, as given (without the client's prefix) */
    String name();

    /**
     * Tries once to take the lock; never waits for another owner. If the backend's answer comes
     * so late that the grant's own lease has run out, the grant is given back and the attempt
     * made once more, since nobody else holds the lock; if the second grant is late too, that is a
     * {@link LockBackendException}. An attempt that fails is given up on the backend (its grant,
     * if it made one without answering, is removed), so it leaves the lock takeable.
     *
     * @return the handle, or empty if another owner holds the lock
     * @throws LockBackendException if the backend failed the attempt
     */
    Optional<LockHandle> tryAcquire();

    /**
     * Takes the lock, waiting for it at most {@code wait}.
     *
     * @param wait how long to wait at most; zero tries once
     * @return the handle, or empty if the lock stayed held for the whole wait
     * @throws LockInterruptedException if the thread is interrupted while waiting (the interrupt
     *     flag stays set)
     * @throws LockBackendException if the backend kept failing until the wait ran out
     */
    Optional<LockHandle> tryAcquire(Duration wait);

    /**
     * Takes the lock, waiting for it at most {@code wait}.
     *
     * @param wait how long to wait at most; zero tries once
     * @return the handle
     * @throws LockTimeoutException if the lock stayed held for the whole wait
     * @throws LockInterruptedException if the thread is interrupted while waiting (the interrupt
     *     flag stays set)
     * @throws LockBackendException if the backend kept failing until the wait ran out
     */
    LockHandle acquire(Duration wait);

    /**
     * Takes the lock without blocking the caller. The future fails with
     * {@link LockTimeoutException} if the lock stays held for the whole wait. Cancelling the
     * future stops the wait; a grant that races the cancellation is released.
     *
     * @param wait how long to wait at most; zero tries once
     * @return a future completed with the handle
     */
    CompletableFuture<LockHandle> acquireAsync(Duration wait);

    /**
     * Returns this lock with another lease length, for calls that need a longer or shorter lease
     * than the client's default.
     *
     * @param lease the lease; positive and within what the backend supports
     * @return a lock of the same name with the lease changed
     * @throws LockConfigurationException if the backend cannot honour the lease
     */
    DistributedLock withLease(Duration lease);

    /**
     * Returns this lock with automatic renewal switched on or off. With renewal off, a holder
     * keeps the lock only for one lease unless it calls {@link LockHandle#extend(Duration)}.
     *
     * @param autoRenew whether to renew held handles automatically
     * @return a lock of the same name with the renewal setting changed
     */
    DistributedLock withAutoRenew(boolean autoRenew);

    /**
     * Looks at the lock without taking it: who holds it, with which fencing token, and for how
     * much longer, where the backend can tell. Meant for operations tools; the answer is stale
     * the moment it arrives, so never decide to write on it — acquire instead.
     *
     * @return the lock's status; {@link LockStatus.State#UNKNOWN} if the backend cannot tell
     * @throws LockBackendException if the backend could not be reached
     */
    LockStatus status();

    /**
     * Adapts this lock to {@link Lock} for code that expects one. The adapter is owned by the
     * thread that locked it and reentrant for that thread; other threads, in this process or
     * another, wait. {@link Lock#newCondition()} is not supported.
     *
     * @return a {@link Lock} backed by this distributed lock
     */
    Lock asLock();
}
