package io.locksmith;

/**
 * Thrown when a client cannot be opened as configured: a malformed URI, an unknown option, no
 * provider or two providers for a scheme, a lease the backend cannot honour, wrong credentials.
 * Retrying does not help; the configuration has to change.
 */
public final class LockConfigurationException extends LockException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong and, where possible, how to fix it
     */
    public LockConfigurationException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the underlying cause.
     *
     * @param message what is wrong and, where possible, how to fix it
     * @param cause the underlying failure
     */
    public LockConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
