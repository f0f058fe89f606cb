package io.locksmith;

/**
 * Thrown when the backend could not be reached or failed an operation (a connection refused, a
 * timeout, an error reply). The message names the backend and, where one was involved, the lock;
 * the cause keeps the client library's exception.
 */
public final class LockBackendException extends LockException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed, naming the backend (credentials masked) and the lock
     * @param cause the client library's exception, may be {@code null}
     */
    public LockBackendException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Creates the exception without a cause.
     *
     * @param message what failed, naming the backend (credentials masked) and the lock
     */
    public LockBackendException(String message) {
        super(message);
    }
}
