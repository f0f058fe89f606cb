package io.locksmith.internal;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Jittered exponential back-off between attempts: each pause is drawn between half and all of a
 * ceiling that doubles from the minimum up to the maximum, so that waiters spread out instead of
 * retrying in step.
 */
final class Backoff {

    private final long minNanos;
    private final long maxNanos;
    private long ceiling;

    Backoff(Duration min, Duration max) {
        this.minNanos = min.toNanos();
        this.maxNanos = max.toNanos();
        this.ceiling = minNanos;
    }

    /** @return the next pause, in nanoseconds */
    long nextNanos() {
        return nextNanos(maxNanos);
    }

    /**
     * @param capNanos the highest ceiling this pause may be drawn under (the ceiling itself still
     *     doubles), at least the minimum
     * @return the next pause, in nanoseconds
     */
    long nextNanos(long capNanos) {
        long c = Math.min(ceiling, Math.max(minNanos, capNanos));
        ceiling = Math.min(maxNanos, c * 2);
        long half = c / 2;
        return half + ThreadLocalRandom.current().nextLong(c - half + 1);
    }

    /** Starts again from the minimum, after a wake-up signal. */
    void reset() {
        ceiling = minNanos;
    }
}
