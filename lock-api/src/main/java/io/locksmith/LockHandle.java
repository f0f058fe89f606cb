package io.locksmith;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Proof of holding a lock, from a successful acquisition until {@link #close()} or loss.
 *
 * <p>While the handle is open and automatic renewal is on, the lease is renewed in the
 * background. If it cannot be kept, the handle is <em>lost</em>: {@link #isHeld()} turns false
 * and the {@link #onLost(Runnable) loss callbacks} run once. Code that writes to a shared
 * resource should pass {@link #fencingToken()} along so that the resource can refuse a write
 * from a holder that lost the lock without knowing it.
 *
 * <pre>{@code
 * try (LockHandle held = lock.acquire(Duration.ofSeconds(10))) {
 *     held.onLost(() -> job.abort());
 *     ledger.write(entry, held.fencingToken());
 * }
 * }</pre>
 */
public interface LockHandle extends AutoCloseable {

    /** @return the lock's name, as given (without the client's prefix) */
    String name();

    /**
     * Returns the grant's fencing token: strictly greater than the token of every earlier grant
     * of the same lock name on the same backend.
     *
     * @return the fencing token
     */
    long fencingToken();

    /**
     * Tells whether the lock can still be assumed held: not closed, not reported lost, and the
     * lease's deadline (counted on this process's monotonic clock from the last confirmed
     * acquisition or renewal) not passed. Makes no backend call.
     *
     * @return whether the handle holds its lock
     */
    boolean isHeld();

    /**
     * @return the time left before the lease's deadline on this process's monotonic clock, or
     *     {@link Duration#ZERO} if the lock is not held
     */
    Duration remainingLease();

    /**
     * Registers a callback that runs once if the lock is lost (never on a normal close). It runs
     * on a Locksmith thread, never on the backend client's I/O threads. Registered after the loss,
     * it runs at once.
     *
     * @param callback what to do on loss
     * @return this handle
     */
    LockHandle onLost(Runnable callback);

    /**
     * @return a stage completed with the reason when the lock is lost; it never completes if the
     *     handle is closed while still holding the lock
     */
    CompletionStage<LossReason> whenLost();

    /**
     * Renews the lease now for {@code lease} from this moment, on the backend. Used by callers that
     * switched automatic renewal off, or that need a longer lease for one step.
     *
     * @param lease the new lease; positive and within what the backend supports
     * @throws LockNotHeldException if the handle no longer holds the lock (it is then lost)
     * @throws LockBackendException if the backend could not be reached; the lock may still be held
     * @throws UnsupportedOperationException if {@code lease} differs from the current lease and the
     *     backend can renew a lease only for the length it was granted
     */
    void extend(Duration lease);

    /**
     * Releases the lock if this handle still owns it. Idempotent; never removes another owner's
     * lock; throws no exception (a release that fails is logged, and the lease runs out on its own).
     */
    @Override
    void close();
}
