package io.locksmith.spring;

/**
 * Thrown by a {@link Locked} method with {@link Locked.WhenBusy#THROW} when another owner held its
 * lock for the whole wait. The method did not run.
 */
public final class LockBusyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String lockName;

    /**
     * @param lockName the lock's name
     * @param method the method that did not run, as {@code Class.method}
     * @param backend the backend's description (never credentials)
     */
    public LockBusyException(String lockName, String method, String backend) {
        super("lock '" + lockName + "' is held by another owner on " + backend + ", so " + method
                + " did not run (@Locked whenBusy = THROW)");
        this.lockName = lockName;
    }

    /** @return the name of the lock that was busy */
    public String lockName() {
        return lockName;
    }
}
