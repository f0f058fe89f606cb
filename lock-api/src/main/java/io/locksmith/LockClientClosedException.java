package io.locksmith;

/**
 * A lock operation on a client that is closed, or was closed while the operation waited. An
 * {@link IllegalStateException}, as the use of any closed resource is; the message names the lock
 * and the backend.
 */
public final class LockClientClosedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final String backend;

    /**
     * @param lockName the lock the operation was for, or {@code null} for the client itself
     * @param backend the backend's description, credentials masked
     * @param closedWhile what the operation was doing when the client closed ({@code "waiting"},
     *     {@code "acquiring"}), or {@code null} if the client was closed before it began
     */
    public LockClientClosedException(String lockName, String backend, String closedWhile) {
        super(message(lockName, backend, closedWhile));
        this.lockName = lockName;
        this.backend = backend;
    }

    private static String message(String lockName, String backend, String closedWhile) {
        String client = "the lock client for " + backend;
        if (lockName == null) {
            return client + " is closed";
        }
        if (closedWhile == null) {
            return "cannot use lock '" + lockName + "': " + client + " is closed";
        }
        return client + " was closed while " + closedWhile + " for lock '" + lockName + "'";
    }

    /** @return the lock the operation was for, or {@code null} */
    public String lockName() {
        return lockName;
    }

    /** @return the backend's description, credentials masked */
    public String backend() {
        return backend;
    }
}
