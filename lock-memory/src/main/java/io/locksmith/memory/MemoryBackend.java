package io.locksmith.memory;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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
        if (request.hold().kind() == Hold.Kind.EXCLUSIVE) {
            return store.tryAcquire(
                    request.key(), request.owner(), request.lease().toNanos());
        }
        return store.tryAcquireShared(request, description);
    }

    @Override
    public void abandon(AcquireRequest request) {
        up(request.name());
        Hold.Kind kind = request.hold().kind();
        if (kind == Hold.Kind.EXCLUSIVE) {
            store.abandon(request.key(), request.owner());
        } else {
            store.abandonShared(kind, request.key(), request.owner());
        }
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        up(leases.get(0).name());
        List<RenewOutcome> outcomes = new ArrayList<>(leases.size());
        for (HeldLease l : leases) {
            Hold.Kind kind = l.hold().kind();
            boolean renewed = kind == Hold.Kind.EXCLUSIVE
                    ? store.renew(l.key(), l.owner(), l.token(), l.lease().toNanos())
                    : store.renewShared(
                            kind, l.key(), l.owner(), l.token(), l.lease().toNanos());
            outcomes.add(renewed ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED);
        }
        return outcomes;
    }

    @Override
    public boolean release(HeldLease lease) {
        up(lease.name());
        Hold.Kind kind = lease.hold().kind();
        return kind == Hold.Kind.EXCLUSIVE
                ? store.release(lease.key(), lease.owner(), lease.token())
                : store.releaseShared(kind, lease.key(), lease.owner(), lease.token());
    }

    /** Every kind: the store keeps each family's keys in a map of its own. */
    @Override
    public Set<Hold.Kind> holds() {
        return EnumSet.allOf(Hold.Kind.class);
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return Optional.of(this);
    }

    @Override
    public Optional<LockInspector> inspector() {
        return Optional.of(new LockInspector() {
            @Override
            public Optional<HolderState> inspect(String key) {
                up(key);
                return Optional.ofNullable(store.holder(key));
            }

            @Override
            public Optional<List<Holder>> holders(String key, Hold.Kind kind) {
                up(key);
                if (kind == Hold.Kind.EXCLUSIVE) {
                    return Optional.of(
                            inspect(key).map(h -> List.of(new Holder(kind, h))).orElse(List.of()));
                }
                return Optional.of(store.holders(kind, key));
            }
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
