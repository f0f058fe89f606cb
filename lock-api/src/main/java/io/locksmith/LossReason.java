package io.locksmith;

/** Why a {@link LockHandle} stopped holding its lock without being closed. */
public enum LossReason {
    /**
     * The lease's deadline passed on the holder's monotonic clock without a confirmed renewal:
     * renewal was off, or the backend could not be reached in time, or the process was paused.
     */
    LEASE_EXPIRED,
    /** The backend reported that the lock is no longer this handle's: it was removed or taken. */
    OWNERSHIP_LOST,
    /** The backend's session or lease that carried the lock ended (a ZooKeeper session, an etcd lease). */
    SESSION_LOST
}
