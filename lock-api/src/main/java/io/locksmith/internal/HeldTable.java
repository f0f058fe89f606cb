package io.locksmith.internal;

import io.locksmith.LossReason;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.HeldLeases;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A client's held locks, by owner and by key: the one table of them (a backend reads it as
 * {@link HeldLeases} and keeps none of its own). It also keeps a loss that a backend reports for an
 * acquisition still in flight, so that a watch that fires before the grant reaches the core is not
 * dropped.
 */
final class HeldTable implements HeldLeases {

    private final ConcurrentHashMap<String, DefaultLockHandle> byOwner = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Set<DefaultLockHandle>> byKey = new ConcurrentHashMap<>();
    // owners with a backend call in flight, and losses reported for them before their handle was registered
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, LossReason> early = new ConcurrentHashMap<>();

    /**
     * Adds a handle; if a loss was reported for its owner while the grant was on its way, the
     * handle is lost at once.
     *
     * @return whether the handle is held (not lost on arrival)
     */
    boolean add(DefaultLockHandle handle) {
        byKey.computeIfAbsent(handle.key(), k -> ConcurrentHashMap.newKeySet()).add(handle);
        byOwner.put(handle.owner(), handle);
        LossReason lostFirst = early.remove(handle.owner());
        if (lostFirst != null) {
            handle.lose(lostFirst);
            return false;
        }
        return true;
    }

    void remove(DefaultLockHandle handle) {
        byOwner.remove(handle.owner(), handle);
        byKey.computeIfPresent(handle.key(), (k, set) -> {
            set.remove(handle);
            return set.isEmpty() ? null : set;
        });
    }

    /** Notes that a backend call for {@code owner} is in flight, so a loss reported meanwhile is kept. */
    void expect(String owner) {
        pending.add(owner);
    }

    /** Ends {@link #expect}: the call's grant, if any, is registered by now. */
    void settle(String owner) {
        pending.remove(owner);
        early.remove(owner);
    }

    void lose(String owner, LossReason reason) {
        DefaultLockHandle h = byOwner.get(owner);
        if (h == null && pending.contains(owner)) {
            early.put(owner, reason);
            h = byOwner.get(owner); // added meanwhile: add() may have looked before the put
        }
        if (h != null) {
            early.remove(owner);
            h.lose(reason);
        }
    }

    void loseAll(LossReason reason) {
        for (String owner : pending) {
            early.put(owner, reason);
        }
        for (DefaultLockHandle h : byOwner.values()) {
            early.remove(h.owner());
            h.lose(reason);
        }
    }

    /** @return the held handles, a live view */
    Collection<DefaultLockHandle> handles() {
        return byOwner.values();
    }

    @Override
    public List<HeldLease> on(String key) {
        Set<DefaultLockHandle> onKey = byKey.get(key);
        if (onKey == null) {
            return List.of();
        }
        List<HeldLease> out = new ArrayList<>(onKey.size());
        for (DefaultLockHandle h : onKey) {
            out.add(h.lease(h.lease()));
        }
        return out;
    }

    @Override
    public List<HeldLease> all() {
        List<HeldLease> out = new ArrayList<>(byOwner.size());
        for (DefaultLockHandle h : byOwner.values()) {
            out.add(h.lease(h.lease()));
        }
        return out;
    }
}
