package io.locksmith.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * One acquisition the core asks a backend for.
 *
 * @param key the backend key: the client's prefix and the lock's name ({@code prefix:name}, or the
 *     name alone without a prefix); at most 1,281 characters, any Unicode; a backend that cannot
 *     store it as is must map it injectively (escape, or hash and keep the original)
 * @param name the lock's name as the user gave it, for messages
 * @param owner a string unique to this acquisition across all clients; the backend stores it and
 *     compares it on renewal and release
 * @param lease how long the grant lasts without renewal, kept by the backend's clock
 */
public record AcquireRequest(String key, String name, String owner, Duration lease) {

    /** Checks the components. */
    public AcquireRequest {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(lease, "lease");
    }
}
