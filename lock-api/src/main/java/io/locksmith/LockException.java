package io.locksmith;

/**
 * The root of every exception Locksmith throws for a lock operation that could not be done.
 * All Locksmith exceptions are unchecked. Bad arguments are reported with
 * {@link IllegalArgumentException} or {@link NullPointerException} instead.
 *
 * <p>Messages name the lock and the backend; they never contain a password, key or token.
 */
public sealed class LockException extends RuntimeException
        permits LockTimeoutException,
                LockBackendException,
                LockConfigurationException,
                LockInterruptedException,
                LockNotHeldException,
                PermitMismatchException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a message.
     *
     * @param message what went wrong, naming the lock and backend where known
     */
    public LockException(String message) {
        super(message);
    }

    /**
     * Creates an exception with a message and the underlying cause.
     *
     * @param message what went wrong, naming the lock and backend where known
     * @param cause the underlying failure, may be {@code null}
     */
    public LockException(String message, Throwable cause) {
        super(message, cause);
    }
}
