package io.locksmith.spi;

import io.locksmith.LossReason;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The atomic primitives of one backend connection. The core builds waiting, deadlines, async
 * acquisition, renewal scheduling, loss detection and handles on them.
 *
 * <p>Every method may be called from several threads at once and must return or throw within
 * the backend's operation timeout: never block without a bound. Failures to reach the backend
 * are reported as {@link io.locksmith.LockBackendException} naming the backend (credentials
 * masked) and the lock.
 */
public interface LockBackend extends AutoCloseable {

    /** @return the backend's description for messages, credentials masked, e.g. {@code redis://cache:6379/0} */
    String description();

    /** @return the shortest lease the backend can keep; 1 ms by default */
    default Duration minimumLease() {
        return Duration.ofMillis(1);
    }

    /** @return the longest lease the backend can keep; effectively unbounded by default */
    default Duration maximumLease() {
        return Duration.ofDays(365);
    }

    /**
     * Tries once to take the key, atomically: if it is free (never taken, released or expired by
     * the backend's clock) it becomes the request's owner's for the request's lease, with a new
     * fencing token. If the request's own owner already holds it (an earlier attempt of the same
     * wait took effect but its answer was lost), that is a grant too, with the token it was
     * granted under and the lease restarted: a waiter is never refused by its own grant.
     *
     * <p>The request's {@link AcquireRequest#hold() hold} says which family's key it is and what
     * it may share the key with ({@link Hold}): a semaphore's permit is granted while fewer than
     * its permits are held, a read while no writer holds or waits, a write while nobody holds. A
     * write that finds the key held marks it, so that no new reader is granted while the writer
     * waits. A permit that gives another number of permits than the key's holders agreed on fails
     * with {@link io.locksmith.PermitMismatchException}, which ends the caller's wait.
     *
     * @param request the acquisition
     * @return a {@link Grant}, or {@link Held} (with the holder's remaining lease if this call
     *     learned it) if another owner holds the key
     */
    AcquireResult tryAcquire(AcquireRequest request);

    /**
     * Extends each lease that its owner still holds, each for its own {@link HeldLease#lease()},
     * checking ownership and extending in one atomic step per lease. A backend that can do the
     * whole batch in one call should.
     *
     * @param leases the leases to renew; not empty
     * @return one outcome per lease, in the same order
     * @throws io.locksmith.LockBackendException if the batch could not be sent; the core counts
     *     every lease as {@link RenewOutcome#FAILED}
     */
    List<RenewOutcome> renew(List<HeldLease> leases);

    /**
     * Whether {@link #renew} extends a lease for the {@link HeldLease#lease()} it is given even
     * when that differs from the length the lease was granted or last renewed for (what
     * {@link io.locksmith.LockHandle#extend} asks). A backend whose server renews a lease only for
     * its original length says {@code false}, and the core refuses to extend to another length
     * rather than count a lease the server did not grant.
     *
     * @return {@code true} by default
     */
    default boolean renewsForAnyLease() {
        return true;
    }

    /**
     * The most leases the core passes to one {@link #renew} call. The core credits each renewed
     * lease from when the call that renewed it was sent, so a backend that renews one request per
     * lease, whose batch of thousands can take seconds, names a limit: the core then sends the due
     * leases in calls of at most this many, one after another, and a lease renewed late in a tick
     * is credited from its own call, not from the start of the tick.
     *
     * @return {@link Integer#MAX_VALUE} by default: every due lease in one call
     */
    default int renewalBatchLimit() {
        return Integer.MAX_VALUE;
    }

    /**
     * Gives up an attempt whose outcome is unknown: a {@link #tryAcquire} that timed out, failed
     * or was interrupted may still have taken the key on the server. Removes the key if the
     * request's owner holds it, in one owner-checked step; never touches another owner's key.
     * The core calls it when the caller stops waiting, so that such an attempt does not hold the
     * lock for a whole lease with no handle to release it. Best effort: may throw
     * {@link io.locksmith.LockBackendException}, which the core logs.
     *
     * <p>For a {@link Hold.Kind#WRITE} request the core also calls it whenever the writer stops
     * waiting without a grant (a one-shot attempt that found the key held, a wait that timed out
     * or was cancelled), and the backend removes the writer's waiting mark with it. Likewise for
     * a request that {@linkplain AcquireRequest#waits() waits}: when its wait ends without a grant
     * the core calls it, and a backend that keeps waiters in a queue removes the waiter.
     *
     * <p>The default does nothing; a backend whose attempts can take effect without an answer
     * must implement it, and the kit checks that a failed attempt leaves the lock takeable.
     *
     * @param request the attempt given up
     */
    default void abandon(AcquireRequest request) {}

    /**
     * Releases the lease if its owner still holds it; never touches another owner's key.
     *
     * @param lease the lease
     * @return whether the lease was still held and is now released
     */
    boolean release(HeldLease lease);

    /**
     * Tells the backend that the core no longer counts a lease as held: its local deadline passed
     * without a confirmed renewal ({@link LossReason#LEASE_EXPIRED}), or a renewal, a watch or a
     * session said it is gone. The core keeps the table of held leases and their deadlines
     * ({@link BackendContext#heldLeases()}); a backend whose server would keep the key past the
     * lease (a ZooKeeper node lives as long as its session, an etcd key as long as a lease shared
     * by other grants) removes it here, owner-checked, so that the next waiter is not kept out.
     * Called on a worker thread, once per lease; may throw {@link io.locksmith.LockBackendException},
     * which the core logs. The default does nothing: the server's own expiry ends the key.
     *
     * @param lease the lease no longer held
     * @param reason why the core counts it lost
     */
    default void lost(HeldLease lease, LossReason reason) {}

    /**
     * @return the kinds of hold this backend keeps; the core asks for no other, and a user asking
     *     for a semaphore or a read-write lock of a backend that keeps none is told so. A backend
     *     that keeps {@link Hold.Kind#READ} keeps {@link Hold.Kind#WRITE} too. Exclusive only by
     *     default.
     */
    default Set<Hold.Kind> holds() {
        return Set.of(Hold.Kind.EXCLUSIVE);
    }

    /** @return the backend's native wake-up on release, if it has one */
    default Optional<ReleaseSignals> releaseSignals() {
        return Optional.empty();
    }

    /** @return the backend's native queued acquisition (FIFO), if it has one */
    default Optional<QueuedAcquirer> queue() {
        return Optional.empty();
    }

    /** @return a read-only look at keys for operations tools, if the backend can give one */
    default Optional<LockInspector> inspector() {
        return Optional.empty();
    }

    /** Closes the connections this backend owns. Idempotent. */
    @Override
    void close();
}
