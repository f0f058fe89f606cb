package io.locksmith.internal;

import io.locksmith.LockHandle;
import io.locksmith.RateLimiter;
import io.locksmith.spi.Durations;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A rate limiter: a semaphore whose permits are leased for one window, never renewed and never
 * released, so that each is held by the backend's clock for the whole window after its grant.
 */
final class DefaultRateLimiter implements RateLimiter {

    private final DefaultDistributedLock permit;
    private final Duration per;

    DefaultRateLimiter(DefaultDistributedLock permit, Duration per) {
        this.permit = permit;
        this.per = per;
    }

    @Override
    public String name() {
        return permit.name();
    }

    @Override
    public int permits() {
        return permit.hold().permits();
    }

    @Override
    public Duration per() {
        return per;
    }

    @Override
    public boolean tryAcquire() {
        return permit.tryAcquire().map(DefaultRateLimiter::spend).isPresent();
    }

    @Override
    public boolean tryAcquire(Duration wait) {
        return permit.tryAcquire(wait).map(DefaultRateLimiter::spend).isPresent();
    }

    @Override
    public void acquire(Duration wait) {
        spend(permit.acquire(wait));
    }

    @Override
    public CompletableFuture<Void> acquireAsync(Duration wait) {
        return permit.acquireAsync(wait).thenAccept(DefaultRateLimiter::spend);
    }

    private static LockHandle spend(LockHandle handle) {
        ((DefaultLockHandle) handle).spend();
        return handle;
    }

    @Override
    public String toString() {
        return "RateLimiter[" + name() + ", " + permits() + " per " + Durations.format(per) + "]";
    }
}
