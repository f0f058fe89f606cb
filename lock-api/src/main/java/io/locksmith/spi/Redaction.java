package io.locksmith.spi;

import io.locksmith.internal.Redactor;

/**
 * Masks credentials before text reaches a message, a log line or a {@code toString()}: the
 * password in a URI's user-info, and the values of parameters that look secret ({@code password},
 * {@code AccountKey}, {@code sig}, {@code token}, ...). Backends use it on locations and on
 * client-library messages that may echo them.
 */
public final class Redaction {

    private Redaction() {}

    /**
     * @param text a URI, a connection string, or a message that may contain one
     * @return the text with credentials masked as {@code ****}
     */
    public static String redact(String text) {
        return Redactor.redact(text);
    }
}
