package io.locksmith.memory;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One client's connection to a {@link MemoryStore}. It can be cut and restored, which makes every
 * call fail as a network partition would; tests use that to check loss and crash handling.
 */
final class MemoryBackend implements LockBackend, ReleaseSignals {

    private final MemoryStore store;
    private final String description;
    private volatile boolean severed;

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

    @Override
    public String description() {
        return description;
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        reachable(request.name());
        return store.tryAcquire(request.key(), request.owner(), request.lease().toNanos());
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        reachable(leases.get(0).name());
        List<RenewOutcome> outcomes = new ArrayList<>(leases.size());
        for (HeldLease l : leases) {
            boolean renewed = store.renew(l.key(), l.owner(), l.token(), l.lease().toNanos());
            outcomes.add(renewed ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED);
        }
        return outcomes;
    }

    @Override
    public boolean release(HeldLease lease) {
        reachable(lease.name());
        return store.release(lease.key(), lease.owner(), lease.token());
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return Optional.of(this);
    }

    @Override
    public Optional<io.locksmith.spi.LockInspector> inspector() {
        return Optional.of(key -> {
            reachable(key);
            return Optional.ofNullable(store.holder(key));
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
    }

    @Override
    public String toString() {
        return "MemoryBackend[" + description + "]";
    }
}
