package io.locksmith.spi;

/** What happened to one lease in a renewal batch. */
public enum RenewOutcome {
    /** The lease was extended; the new deadline counts from when the renewal was sent. */
    RENEWED,
    /** The key is gone or has another owner; the holder has lost the lock. */
    NOT_OWNED,
    /** The renewal could not be done this time (a timeout); the core retries while the lease lasts. */
    FAILED
}
