package io.locksmith.internal;

import io.locksmith.LossReason;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.HeldLeases;
import java.util.ArrayList;
import java.util.Arrays;
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
    // a key's handle, or an array of them when one client holds a key more than once (shared
    // holds): the common case costs one map entry and no allocation of its own
    private final ConcurrentHashMap<String, Object> byKey = new ConcurrentHashMap<>();
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
        byKey.merge(handle.key(), handle, HeldTable::with);
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
        if (!byKey.remove(handle.key(), handle)) {
            byKey.computeIfPresent(handle.key(), (k, held) -> without(held, handle));
        }
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
        Object held = byKey.get(key);
        if (held == null) {
            return List.of();
        }
        if (held instanceof DefaultLockHandle h) {
            return List.of(h.lease(h.lease()));
        }
        List<HeldLease> out = new ArrayList<>();
        for (DefaultLockHandle h : (DefaultLockHandle[]) held) {
            out.add(h.lease(h.lease()));
        }
        return out;
    }

    private static Object with(Object held, Object added) {
        DefaultLockHandle[] before =
                held instanceof DefaultLockHandle h ? new DefaultLockHandle[] {h} : (DefaultLockHandle[]) held;
        DefaultLockHandle[] after = Arrays.copyOf(before, before.length + 1);
        after[before.length] = (DefaultLockHandle) added;
        return after;
    }

    private static Object without(Object held, DefaultLockHandle removed) {
        if (held == removed) {
            return null;
        }
        if (!(held instanceof DefaultLockHandle[] all)) {
            return held;
        }
        DefaultLockHandle[] rest = Arrays.stream(all).filter(h -> h != removed).toArray(DefaultLockHandle[]::new);
        return rest.length == 0 ? null : rest.length == 1 ? rest[0] : rest;
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
