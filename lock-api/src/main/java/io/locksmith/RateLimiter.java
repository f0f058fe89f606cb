package io.locksmith;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A rate limiter shared by every client of the same backend: at most {@link #permits()} grants in
 * any window of length {@link #per()}, across all clients. Each grant holds one of the permits for
 * a whole window, by the backend's clock, and is never given back early; so a grant waits until
 * the oldest of the last {@code permits} grants is one window old.
 *
 * <pre>{@code
 * RateLimiter provider = locks.rateLimiter("sms-provider", 100, Duration.ofMinutes(1));
 * if (provider.tryAcquire()) {
 *     sms.send(message);             // at most 100 a minute, across all instances
 * }
 * }</pre>
 *
 * <p>A rate limiter's permits are a semaphore's of the same name: give a name to one or the other.
 */
public interface RateLimiter {

    /** @return the name */
    String name();

    /** @return how many grants a window admits */
    int permits();

    /** @return the window's length */
    Duration per();

    /**
     * Takes a grant if the window has one left, without waiting.
     *
     * @return whether it was granted
     */
    boolean tryAcquire();

    /**
     * Takes a grant, waiting at most {@code wait} for one.
     *
     * @param wait how long to wait at most
     * @return whether it was granted
     * @throws LockInterruptedException if the thread is interrupted (its flag stays set)
     */
    boolean tryAcquire(Duration wait);

    /**
     * Takes a grant, waiting at most {@code wait} for one.
     *
     * @param wait how long to wait at most
     * @throws LockTimeoutException if none came in time
     */
    void acquire(Duration wait);

    /**
     * Takes a grant without blocking the caller.
     *
     * @param wait how long to wait at most
     * @return completed when granted, or exceptionally with a {@link LockTimeoutException}
     */
    CompletableFuture<Void> acquireAsync(Duration wait);
}
