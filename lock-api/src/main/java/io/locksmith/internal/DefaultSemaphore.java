package io.locksmith.internal;

import io.locksmith.DistributedSemaphore;
import io.locksmith.LockHandle;
import io.locksmith.LockStatus;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Lock;

/** A semaphore: a lock whose acquisitions each ask for one permit of its number. */
final class DefaultSemaphore implements DistributedSemaphore {

    private final DefaultDistributedLock permit;

    DefaultSemaphore(DefaultDistributedLock permit) {
        this.permit = permit;
    }

    @Override
    public int permits() {
        return permit.hold().permits();
    }

    @Override
    public List<LockStatus> holders() {
        return holders(permit, Hold.Kind.PERMIT, "semaphore");
    }

    /** Lists the holders of a lock's key that admits several, as the backend's inspector tells them. */
    static List<LockStatus> holders(DefaultDistributedLock lock, Hold.Kind kind, String what) {
        ClientRuntime runtime = lock.runtime();
        runtime.ensureOpen(lock.name());
        return runtime.backend
                .inspector()
                .flatMap(i -> i.holders(lock.key(), kind))
                .map(list -> list.stream()
                        .map(LockInspector.Holder::state)
                        .map(h -> LockStatus.held(lock.name(), h.owner(), h.token(), h.remaining()))
                        .toList())
                .orElseThrow(() -> new UnsupportedOperationException(
                        runtime.description() + " cannot list the holders of a " + what));
    }

    @Override
    public String name() {
        return permit.name();
    }

    @Override
    public Optional<LockHandle> tryAcquire() {
        return permit.tryAcquire();
    }

    @Override
    public Optional<LockHandle> tryAcquire(Duration wait) {
        return permit.tryAcquire(wait);
    }

    @Override
    public LockHandle acquire(Duration wait) {
        return permit.acquire(wait);
    }

    @Override
    public CompletableFuture<LockHandle> acquireAsync(Duration wait) {
        return permit.acquireAsync(wait);
    }

    @Override
    public DistributedSemaphore withLease(Duration lease) {
        return new DefaultSemaphore((DefaultDistributedLock) permit.withLease(lease));
    }

    @Override
    public DistributedSemaphore withAutoRenew(boolean autoRenew) {
        return new DefaultSemaphore((DefaultDistributedLock) permit.withAutoRenew(autoRenew));
    }

    @Override
    public LockStatus status() {
        List<LockStatus> holders;
        try {
            holders = holders();
        } catch (UnsupportedOperationException e) {
            return LockStatus.unknown(name());
        }
        return holders.isEmpty() ? LockStatus.free(name()) : holders.get(0);
    }

    @Override
    public Lock asLock() {
        return new JucLock(permit);
    }

    @Override
    public String toString() {
        return "DistributedSemaphore[" + name() + ", permits=" + permits() + ", lease="
                + io.locksmith.spi.Durations.format(permit.lease()) + "]";
    }
}
