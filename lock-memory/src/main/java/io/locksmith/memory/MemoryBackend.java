package io.locksmith.memory;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One client's connection to a {@link MemoryStore}. Every call fails while the store restarts,
 * as at a server that is down; {@link MemoryFaults} cuts and slows a connection by wrapping it.
 */
final class MemoryBackend implements LockBackend, ReleaseSignals {

    private final MemoryStore store;
    private final String description;
    private final BackendEvents events;

    MemoryBackend(MemoryStore store, String description, BackendEvents events) {
        this.store = store;
        this.description = description;
        this.events = events;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        up(request.name());
        return store.tryAcquire(request.key(), request.owner(), request.lease().toNanos());
    }

    @Override
    public void abandon(AcquireRequest request) {
        up(request.name());
        store.abandon(request.key(), request.owner());
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        up(leases.get(0).name());
        List<RenewOutcome> outcomes = new ArrayList<>(leases.size());
        for (HeldLease l : leases) {
            boolean renewed =
                    store.renew(l.key(), l.owner(), l.token(), l.lease().toNanos());
            outcomes.add(renewed ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED);
        }
        return outcomes;
    }

    @Override
    public boolean release(HeldLease lease) {
        up(lease.name());
        return store.release(lease.key(), lease.owner(), lease.token());
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return Optional.of(this);
    }

    @Override
    public Optional<LockInspector> inspector() {
        return Optional.of(key -> {
            up(key);
            return Optional.ofNullable(store.holder(key));
        });
    }

    /** The store signals this client, as a server signals a channel's subscriber; the core fans out. */
    @Override
    public Subscription subscribe(String key) {
        Runnable unsubscribe = store.subscribe(key, () -> events.released(key));
        return unsubscribe::run;
    }

    @Override
    public void close() {
        // nothing to close: the store lives as long as its clients (or its group) do
    }

    private void up(String lockName) {
        if (store.isDown()) {
            throw new LockBackendException(description + " is restarting (lock '" + lockName + "')");
        }
    }

    @Override
    public String toString() {
        return "MemoryBackend[" + description + "]";
    }
}
