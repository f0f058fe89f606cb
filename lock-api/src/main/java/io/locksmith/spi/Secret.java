package io.locksmith.spi;

import java.util.Objects;

/**
 * A credential from a URI or an option (a password, an account key, a token). It shows as
 * {@code ****} in {@code toString()}, so that it cannot reach a message or a log line by accident;
 * {@link #reveal()} gives it to the client library that needs it.
 */
public final class Secret {

    private final String value;

    private Secret(String value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    /**
     * @param value the credential
     * @return it, wrapped
     */
    public static Secret of(String value) {
        return new Secret(value);
    }

    /** @return the credential itself, for the client library; never for a message */
    public String reveal() {
        return value;
    }

    /** @return the credential's characters, for client libraries that take an array */
    public char[] toCharArray() {
        return value.toCharArray();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret s && s.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return Redaction.MASK;
    }
}
