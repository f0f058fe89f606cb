package io.locksmith.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * The answer to an attempt on a key that another owner holds, with the holder's remaining lease
 * where the backend learned it in the same call. Waiters use it to sleep until the lease would
 * run out instead of polling on every back-off tick, when the backend also signals releases.
 *
 * @param remaining the holder's remaining lease by the backend's clock, or {@code null} if unknown
 */
public record Held(Duration remaining) implements AcquireResult {

    /** An answer that says nothing about the holder's lease. */
    public static final Held UNKNOWN = new Held(null);

    /**
     * @param remaining the holder's remaining lease
     * @return the answer
     */
    public static Held remaining(Duration remaining) {
        return new Held(remaining);
    }

    /** @return the holder's remaining lease, if the backend knows it */
    public Optional<Duration> remainingLease() {
        return Optional.ofNullable(remaining);
    }
}
