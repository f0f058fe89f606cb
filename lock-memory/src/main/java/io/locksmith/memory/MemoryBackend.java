package io.locksmith.memory;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * One client's connection to a {@link MemoryStore}. It can be cut and restored, which makes every
 * call fail as a network partition would, and its replies can be delayed, as a slow path back
 * would; tests use that to check loss, crash and deadline handling.
 */
final class MemoryBackend implements LockBackend, ReleaseSignals {

    private final MemoryStore store;
    private final String description;
    private volatile boolean severed;
    private volatile long replyDelayNanos;

    MemoryBackend(MemoryStore store, String description) {
        this.store = store;
        this.description = description;
    }

    MemoryStore store() {
        return store;
    }

    /** Makes every call fail until {@link #restore()}, as if the connection were cut. */
    void sever() {
        severed = true;
    }

    void restore() {
        severed = false;
    }

    /**
     * Makes every call wait {@code delay} after the store answered before it returns: the store has
     * acted, the caller learns it late. {@link Duration#ZERO} ends it.
     */
    void delayReplies(Duration delay) {
        replyDelayNanos = delay.toNanos();
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        reachable(request.name());
        return reply(store.tryAcquire(request.key(), request.owner(), request.lease().toNanos()));
    }

    @Override
    public void abandon(AcquireRequest request) {
        reachable(request.name());
        reply(store.abandon(request.key(), request.owner()));
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        reachable(leases.get(0).name());
        List<RenewOutcome> outcomes = new ArrayList<>(leases.size());
        for (HeldLease l : leases) {
            boolean renewed = store.renew(l.key(), l.owner(), l.token(), l.lease().toNanos());
            outcomes.add(renewed ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED);
        }
        return reply(outcomes);
    }

    @Override
    public boolean release(HeldLease lease) {
        reachable(lease.name());
        return reply(store.release(lease.key(), lease.owner(), lease.token()));
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return Optional.of(this);
    }

    @Override
    public Optional<io.locksmith.spi.LockInspector> inspector() {
        return Optional.of(key -> {
            reachable(key);
            return reply(Optional.ofNullable(store.holder(key)));
        });
    }

    @Override
    public Subscription subscribe(String key, Runnable onRelease) {
        Runnable unsubscribe = store.subscribe(key, onRelease);
        return unsubscribe::run;
    }

    @Override
    public void close() {
        // nothing to close: the store lives as long as its clients (or its group) do
    }

    private void reachable(String lockName) {
        if (severed) {
            throw new LockBackendException("connection to " + description + " is cut (lock '" + lockName + "')");
        }
        if (store.isDown()) {
            throw new LockBackendException(description + " is restarting (lock '" + lockName + "')");
        }
    }

    /** Hands back the store's answer once the reply delay, if any, has passed. */
    private <T> T reply(T answer) {
        long delay = replyDelayNanos;
        if (delay > 0) {
            long due = System.nanoTime() + delay;
            for (long left; (left = due - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(left); // the delay is the point; an interrupt does not shorten a reply's way back
            }
        }
        return answer;
    }

    @Override
    public String toString() {
        return "MemoryBackend[" + description + "]";
    }
}
