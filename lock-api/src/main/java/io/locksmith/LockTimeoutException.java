package io.locksmith;

import java.time.Duration;

/** Thrown when a lock could not be acquired within the wait the caller allowed. */
public final class LockTimeoutException extends LockException {

    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final Duration wait;

    /**
     * Creates the exception.
     *
     * @param lockName the lock that stayed held
     * @param wait how long the caller waited
     * @param backend the backend's description (credentials already masked)
     */
    public LockTimeoutException(String lockName, Duration wait, String backend) {
        super("lock '" + lockName + "' is still held by another owner after waiting "
                + io.locksmith.spi.Durations.format(wait) + " (" + backend + ")");
        this.lockName = lockName;
        this.wait = wait;
    }

    /** @return the name of the lock that could not be acquired */
    public String lockName() {
        return lockName;
    }

    /** @return how long the caller waited */
    public Duration waited() {
        return wait;
    }
}
