package io.locksmith.testing;

import java.io.Serial;

/**
 * A test server could not be provided: its binary is missing (the message names the package to
 * install), it did not start or answer in time (the message holds the tail of its log), or a
 * control on it failed.
 */
public final class TestServerException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed and what to do about it
     */
    public TestServerException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what failed and what to do about it
     * @param cause the underlying failure
     */
    public TestServerException(String message, Throwable cause) {
        super(message, cause);
    }
}
