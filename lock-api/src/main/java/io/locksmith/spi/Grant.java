package io.locksmith.spi;

/**
 * A backend's answer to a successful acquisition.
 *
 * @param token the fencing token: strictly greater than every earlier grant's token for the key
 * @param attachment backend state the core hands back on renewal and release (a node path, a
 *     revision), or {@code null}
 */
public record Grant(long token, Object attachment) implements AcquireResult {

    /**
     * @param token the fencing token
     * @return a grant without attachment
     */
    public static Grant of(long token) {
        return new Grant(token, null);
    }
}
