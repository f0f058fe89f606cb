package io.locksmith;

/**
 * Thrown by {@link LockHandle#extend(java.time.Duration)} when the handle no longer holds its
 * lock: it was released, its lease ran out, or the backend reports another owner.
 */
public final class LockNotHeldException extends LockException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param lockName the lock
     * @param why why it is not held, for example {@code "it was released"}
     */
    public LockNotHeldException(String lockName, String why) {
        super("lock '" + lockName + "' is not held: " + why);
    }
}
