package io.locksmith.internal;

import java.time.Duration;

/** Waits as nanosecond spans that a clock reading can be added to without overflow. */
final class Waits {

    private static final long MAX_WAIT_NANOS = Long.MAX_VALUE / 4;

    private Waits() {}

    /**
     * @param wait a non-negative wait
     * @return the wait in nanoseconds, capped so that adding it to a clock reading cannot overflow
     */
    static long nanos(Duration wait) {
        if (wait.getSeconds() >= MAX_WAIT_NANOS / 1_000_000_000L) {
            return MAX_WAIT_NANOS;
        }
        return wait.toNanos();
    }
}
