package io.locksmith;

/**
 * Thrown when the thread waiting to acquire a lock was interrupted. The thread's interrupt flag
 * is set again before this is thrown, and nothing is left held.
 */
public final class LockInterruptedException extends LockException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param lockName the lock that was being waited for
     * @param cause the {@link InterruptedException}, may be {@code null}
     */
    public LockInterruptedException(String lockName, Throwable cause) {
        super("interrupted while waiting for lock '" + lockName + "'", cause);
    }
}
