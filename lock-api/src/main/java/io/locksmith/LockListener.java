package io.locksmith;

import java.time.Duration;

/**
 * Hears what a client's locks do: acquisitions starting and ending, holds starting, releases,
 * losses and renewals. Register with {@link LockClient#addListener(LockListener)}; metrics and
 * tracing (lock-micrometer) are built on it.
 *
 * <p>Every method has an empty default, so a listener implements only what it needs. They are
 * called on the caller's thread or the client's workers, never on a backend's I/O thread or the
 * client's timer; they must be quick and must not block. One that throws is logged and the
 * others still hear the event. The event records may gain components in later versions: read
 * them, do not construct them.
 */
public interface LockListener {

    /**
     * An acquisition began.
     *
     * @param event what began
     */
    default void acquisitionStarted(AcquisitionStarted event) {}

    /**
     * An acquisition ended, with any outcome. Each started acquisition ends exactly once.
     *
     * @param event how it ended
     */
    default void acquisitionEnded(AcquisitionEnded event) {}

    /**
     * A hold began: a handle was handed out.
     *
     * @param event the hold
     */
    default void held(Hold event) {}

    /**
     * A hold ended by its holder's release (or by closing the client).
     *
     * @param event the hold, how long it lasted
     */
    default void released(HoldEnded event) {}

    /**
     * A hold ended by a loss: the lease ran out, another owner took the key, the session ended.
     *
     * @param event the hold, how long it lasted, why
     */
    default void lost(HoldEnded event) {}

    /**
     * A renewal batch was answered (or failed).
     *
     * @param event the batch's outcomes and time
     */
    default void renewed(Renewal event) {}

    /** How an acquisition ended. */
    enum Outcome {
        /** The lock was acquired. */
        ACQUIRED,
        /** A single attempt ({@link DistributedLock#tryAcquire()}) found it held. */
        BUSY,
        /** The wait ran out. */
        TIMEOUT,
        /** The caller cancelled the future. */
        CANCELLED,
        /** The waiting thread was interrupted. */
        INTERRUPTED,
        /** The client was closed. */
        CLOSED,
        /** The backend failed. */
        ERROR
    }

    /**
     * An acquisition that began.
     *
     * @param lockName the lock's name (often a per-entity id: keep it out of metric tags)
     * @param backend the backend's description, credentials masked
     * @param kind what is acquired: {@code "lock"}, {@code "semaphore"} (a permit, also a rate
     *     limiter's), {@code "read"} or {@code "write"}
     * @param maxWait how long it may wait; zero for a single attempt
     * @param id an id unique among this client's acquisitions, to pair it with its end
     */
    record AcquisitionStarted(String lockName, String backend, String kind, Duration maxWait, long id) {}

    /**
     * An acquisition that ended.
     *
     * @param started its start
     * @param outcome how it ended
     * @param took how long it took, by the client's clock
     * @param token the grant's fencing token if {@link Outcome#ACQUIRED}, else -1
     * @param failure the exception the caller got, or {@code null}
     */
    record AcquisitionEnded(
            AcquisitionStarted started, Outcome outcome, Duration took, long token, Throwable failure) {}

    /**
     * A hold: a handed-out grant.
     *
     * @param lockName the lock's name
     * @param backend the backend's description, credentials masked
     * @param kind what is held: {@code "lock"}, {@code "semaphore"}, {@code "read"} or {@code "write"}
     * @param token the grant's fencing token
     */
    record Hold(String lockName, String backend, String kind, long token) {}

    /**
     * A hold that ended.
     *
     * @param hold the hold
     * @param heldFor how long it lasted, by the client's clock
     * @param reason why it was lost, or {@code null} for a release
     */
    record HoldEnded(Hold hold, Duration heldFor, LossReason reason) {}

    /**
     * A renewal batch.
     *
     * @param backend the backend's description, credentials masked
     * @param leases how many leases it renewed
     * @param renewed how many were extended
     * @param notOwned how many the backend said were no longer ours
     * @param failed how many could not be renewed this time (retried while their leases last)
     * @param took how long the backend call took
     */
    record Renewal(String backend, int leases, int renewed, int notOwned, int failed, Duration took) {}

    /** A registered listener; closing it removes the listener. */
    interface Registration extends AutoCloseable {
        /** Removes the listener. Idempotent. */
        @Override
        void close();
    }
}
