package io.locksmith.tck;

import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The state a lock server keeps, in memory, for the kit's own tests: one entry per key with its
 * owner, token and expiry by the server's (monotonic) clock, and a fence counter per key kept
 * apart from the entry, so that it outlives a release and an operator's removal.
 *
 * <p>The sound operations ({@link #acquire}, {@link #renew}, {@link #release}) are each one
 * atomic step, as a correct backend's script or statement is. The broken providers in
 * {@link Flaw} combine the smaller steps ({@link #holder}, {@link #overwrite}) the way broken
 * backends do. Releases and removals fire the key's listeners, the backend's native wake-up.
 */
final class MemoryServer {

    /** One key's holder; {@code expiresAt} is a {@link System#nanoTime()}. */
    record Entry(String owner, long token, long expiresAt) {
        boolean liveAt(long now) {
            return expiresAt - now > 0;
        }
    }

    private final Map<String, Entry> entries = new HashMap<>();
    /** Each key's latest grant, kept after release and expiry as a lock table keeps its row. */
    private final Map<String, Entry> lastGrants = new HashMap<>();

    private final Map<String, Long> fences = new HashMap<>();
    private final Map<String, List<Runnable>> listeners = new ConcurrentHashMap<>();
    private final Map<String, List<String>> waiting = new HashMap<>();

    /**
     * The keys of the families that admit several holders, a map per family so that the lock,
     * the semaphore and the read-write lock of one key never meet; each family counts its own
     * tokens per key. {@link Quirk#FAMILIES_SHARE_ONE_NAMESPACE} puts both in one map.
     */
    private final Map<Family, Map<String, Shared>> shared = new HashMap<>();

    private final Map<Family, Map<String, Long>> sharedFences = new HashMap<>();

    /** The families of holds kept apart from the locks' entries. */
    enum Family {
        SEMAPHORE,
        READ_WRITE
    }

    /** A way the shared families' steps go wrong, for the broken providers in {@link Flaw}; NONE is sound. */
    enum Quirk {
        NONE,
        /** A semaphore admits one holder more than its permits. */
        ADMITS_ONE_MORE_PERMIT,
        /** A semaphore admits one holder whatever its permits: a lock under another name. */
        ADMITS_ONE_PERMIT,
        /** A semaphore grants a request whatever number of permits it gives. */
        IGNORES_PERMIT_MISMATCH,
        /** Each permit slot counts its own tokens: a grant's token is its slot's count, not the key's. */
        TOKENS_PER_PERMIT_SLOT,
        /** A reader is granted while a writer waits: no waiting mark is read. */
        READERS_PASS_A_WAITING_WRITER,
        /** Abandoning a writer's request leaves its waiting mark, which holds readers back for two leases. */
        ABANDON_LEAVES_THE_MARK,
        /** Permits are granted and renewed for the shortest lease, whatever lease was asked. */
        PERMIT_LEASE_IGNORED,
        /** Semaphores and read-write locks in one map, which locks' keys are checked against too. */
        FAMILIES_SHARE_ONE_NAMESPACE,
        /**
         * A semaphore's and a read-write lock's keys are the name with a suffix ({@code :semaphore},
         * {@code :rwlock}), unescaped, in one map that locks' keys are checked against: the lock
         * {@code x:semaphore} meets the semaphore {@code x}.
         */
        KEYS_SUFFIXED_UNESCAPED
    }

    /** @return the key a shared hold is stored under: the request's, unless the quirk affixes it */
    static String stored(String key, io.locksmith.spi.Hold.Kind kind, Quirk quirk) {
        if (quirk != Quirk.KEYS_SUFFIXED_UNESCAPED) {
            return key;
        }
        return key + (kind == io.locksmith.spi.Hold.Kind.PERMIT ? ":semaphore" : ":rwlock");
    }

    /** One key of a shared family: its holders in grant order, a semaphore's number, writers' waiting marks. */
    static final class Shared {
        int permits;
        final Map<String, SharedHold> holders = new java.util.LinkedHashMap<>();
        /** Each waiting writer's mark: when it ends, a {@link System#nanoTime()}. */
        final Map<String, Long> marks = new HashMap<>();

        void purge(long now) {
            holders.values().removeIf(h -> !h.entry().liveAt(now));
            marks.values().removeIf(until -> until - now <= 0);
        }
    }

    /** One holder of a shared key: its kind, slot (for a semaphore) and entry. */
    record SharedHold(io.locksmith.spi.Hold.Kind kind, int slot, Entry entry) {}

    /**
     * Takes a free or expired key, or restarts the lease of the request's own owner, in one step.
     *
     * @return a grant, or the holder's remaining lease
     */
    synchronized AcquireResult acquire(AcquireRequest r) {
        long now = System.nanoTime();
        Entry e = entries.get(r.key());
        if (e != null && e.liveAt(now) && !e.owner().equals(r.owner())) {
            return Held.remaining(Duration.ofNanos(e.expiresAt() - now));
        }
        long token = e != null && e.liveAt(now) ? e.token() : nextToken(r.key());
        granted(r.key(), new Entry(r.owner(), token, now + r.lease().toNanos()));
        return Grant.of(token);
    }

    /** Extends the lease for {@link HeldLease#lease()} if its owner still holds the key. */
    synchronized RenewOutcome renew(HeldLease l) {
        long now = System.nanoTime();
        Entry e = entries.get(l.key());
        if (e == null || !e.liveAt(now) || !e.owner().equals(l.owner())) {
            return RenewOutcome.NOT_OWNED;
        }
        entries.put(l.key(), new Entry(l.owner(), e.token(), now + l.lease().toNanos()));
        return RenewOutcome.RENEWED;
    }

    /** Removes the key if the lease's owner holds it. */
    boolean release(HeldLease l) {
        if (l.hold().kind() != io.locksmith.spi.Hold.Kind.EXCLUSIVE) {
            return releaseShared(l.key(), l.hold().kind(), l.owner(), Quirk.NONE);
        }
        synchronized (this) {
            Entry e = entries.get(l.key());
            if (e == null || !e.owner().equals(l.owner())) {
                return false;
            }
            entries.remove(l.key());
        }
        fire(l.key());
        return true;
    }

    /** @return the key's live holder, or {@code null}: the first half of a check-then-set */
    synchronized Entry holder(String key) {
        Entry e = entries.get(key);
        return e != null && e.liveAt(System.nanoTime()) ? e : null;
    }

    /** @return the key's latest grant, released, expired or not: a lock table's row read without its owner and clock checks */
    synchronized Entry lastGrant(String key) {
        return lastGrants.get(key);
    }

    /** Writes the key for the request's owner with a new token, whoever held it: the second half. */
    synchronized Grant overwrite(AcquireRequest r) {
        long token = nextToken(r.key());
        granted(
                r.key(),
                new Entry(r.owner(), token, System.nanoTime() + r.lease().toNanos()));
        return Grant.of(token);
    }

    /** Deletes the key's entry, as an operator would; the fence counter stays. */
    void remove(String key) {
        synchronized (this) {
            entries.remove(key);
        }
        fire(key);
    }

    /** Puts a waiter's entry at the end of the key's queue. */
    synchronized void join(String key, String entry) {
        waiting.computeIfAbsent(key, k -> new ArrayList<>()).add(entry);
    }

    /** Removes a waiter's entry from the key's queue, if it is still there. */
    synchronized void leave(String key, String entry) {
        waiting.getOrDefault(key, new ArrayList<>()).remove(entry);
    }

    /** @return whether the waiter's entry is still queued */
    synchronized boolean queued(String key, String entry) {
        return waiting.getOrDefault(key, List.of()).contains(entry);
    }

    /** Removes every waiter's entry for the key, as an operator would. */
    synchronized void clearQueue(String key) {
        waiting.remove(key);
    }

    /**
     * Grants the key to the entry at the head of its queue, in one step, if the key is free; the
     * entry leaves the queue when granted. {@code fromTheBack} reads the queue from the wrong end.
     *
     * @return a grant, or the holder (or the entries ahead) keeps it
     */
    synchronized AcquireResult acquireAsHead(AcquireRequest r, String entry, boolean fromTheBack) {
        List<String> queue = waiting.getOrDefault(r.key(), List.of());
        if (queue.isEmpty() || !entry.equals(queue.get(fromTheBack ? queue.size() - 1 : 0))) {
            return Held.UNKNOWN;
        }
        AcquireResult result = acquire(r);
        if (result instanceof Grant) {
            queue.remove(entry);
        }
        return result;
    }

    /** Deletes the key's fence counter too, as a backend that keeps it in the lock's state loses it. */
    synchronized void forgetFence(String key) {
        fences.remove(key);
    }

    /** Runs {@code onRelease} whenever the key is released or removed, until the returned call. */
    Runnable listen(String key, Runnable onRelease) {
        listeners.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(onRelease);
        return () -> listeners.getOrDefault(key, List.of()).remove(onRelease);
    }

    // ---- the families that admit several holders: semaphores and read-write locks ----

    static Family family(io.locksmith.spi.Hold.Kind kind) {
        return kind == io.locksmith.spi.Hold.Kind.PERMIT ? Family.SEMAPHORE : Family.READ_WRITE;
    }

    private Map<String, Shared> keys(io.locksmith.spi.Hold.Kind kind, Quirk quirk) {
        Family f = quirk == Quirk.FAMILIES_SHARE_ONE_NAMESPACE || quirk == Quirk.KEYS_SUFFIXED_UNESCAPED
                ? Family.SEMAPHORE
                : family(kind);
        return shared.computeIfAbsent(f, x -> new HashMap<>());
    }

    /** @return whether any shared family holds the key: for the broken provider whose families meet */
    synchronized boolean heldByAnyFamily(String key) {
        long now = System.nanoTime();
        for (Map<String, Shared> keys : shared.values()) {
            Shared k = keys.get(key);
            if (k != null) {
                k.purge(now);
                if (!k.holders.isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Grants a permit, a read or a write in one step, or says who keeps it; restarts the lease of
     * the request's own owner. A mismatched number of permits fails with
     * {@link io.locksmith.PermitMismatchException}; a write that finds the key held marks it, and
     * no reader of another owner is granted while the mark lasts (twice the writer's lease from
     * its latest attempt).
     */
    synchronized AcquireResult acquireShared(AcquireRequest r, String backend, Quirk quirk) {
        long now = System.nanoTime();
        io.locksmith.spi.Hold hold = r.hold();
        io.locksmith.spi.Hold.Kind kind = hold.kind();
        long lease = quirk == Quirk.PERMIT_LEASE_IGNORED && kind == io.locksmith.spi.Hold.Kind.PERMIT
                ? MemoryBackend.MINIMUM_LEASE.toNanos()
                : r.lease().toNanos();
        String key = stored(r.key(), kind, quirk);
        if ((quirk == Quirk.FAMILIES_SHARE_ONE_NAMESPACE || quirk == Quirk.KEYS_SUFFIXED_UNESCAPED)
                && holder(key) != null) {
            return Held.UNKNOWN;
        }
        Shared k = keys(kind, quirk).computeIfAbsent(key, x -> new Shared());
        k.purge(now);
        SharedHold own = k.holders.get(r.owner());
        if (own != null) {
            // the same wait's earlier attempt took effect: its grant, with the lease restarted
            k.holders.put(
                    r.owner(),
                    new SharedHold(
                            own.kind(),
                            own.slot(),
                            new Entry(r.owner(), own.entry().token(), now + lease)));
            k.marks.remove(r.owner());
            return Grant.of(own.entry().token());
        }
        if (kind == io.locksmith.spi.Hold.Kind.PERMIT
                && !k.holders.isEmpty()
                && k.permits != hold.permits()
                && quirk != Quirk.IGNORES_PERMIT_MISMATCH) {
            throw new io.locksmith.PermitMismatchException(r.name(), k.permits, hold.permits(), backend);
        }
        boolean free = switch (kind) {
            case PERMIT ->
                k.holders.size()
                        < switch (quirk) {
                            case ADMITS_ONE_MORE_PERMIT -> hold.permits() + 1;
                            case ADMITS_ONE_PERMIT -> 1;
                            default -> hold.permits();
                        };
            case READ ->
                k.holders.values().stream().noneMatch(h -> h.kind() != io.locksmith.spi.Hold.Kind.READ)
                        && (quirk == Quirk.READERS_PASS_A_WAITING_WRITER
                                || k.marks.keySet().stream().allMatch(r.owner()::equals));
            default -> k.holders.isEmpty();
        };
        if (!free) {
            if (kind == io.locksmith.spi.Hold.Kind.WRITE) {
                k.marks.put(r.owner(), now + 2 * r.lease().toNanos());
            }
            long soonest = k.holders.values().stream()
                    .mapToLong(h -> h.entry().expiresAt() - now)
                    .min()
                    .orElse(0);
            return soonest > 0 ? Held.remaining(Duration.ofNanos(soonest)) : Held.UNKNOWN;
        }
        if (k.holders.isEmpty()) {
            k.permits = hold.permits();
        }
        int slot = 0;
        while (slotTaken(k, slot)) {
            slot++;
        }
        long token = quirk == Quirk.TOKENS_PER_PERMIT_SLOT
                ? sharedFences
                        .computeIfAbsent(family(kind), x -> new HashMap<>())
                        .merge(r.key() + "\u0000" + slot, 1L, Long::sum)
                : sharedFences
                        .computeIfAbsent(family(kind), x -> new HashMap<>())
                        .merge(r.key(), 1L, Long::sum);
        k.holders.put(r.owner(), new SharedHold(kind, slot, new Entry(r.owner(), token, now + lease)));
        k.marks.remove(r.owner());
        return Grant.of(token);
    }

    private static boolean slotTaken(Shared k, int slot) {
        return k.holders.values().stream().anyMatch(h -> h.slot() == slot);
    }

    /** Extends a shared hold for {@link HeldLease#lease()} if its owner still holds it. */
    synchronized RenewOutcome renewShared(HeldLease l, Quirk quirk) {
        long now = System.nanoTime();
        Shared k = keys(l.hold().kind(), quirk).get(stored(l.key(), l.hold().kind(), quirk));
        if (k == null) {
            return RenewOutcome.NOT_OWNED;
        }
        k.purge(now);
        SharedHold h = k.holders.get(l.owner());
        if (h == null || h.kind() != l.hold().kind()) {
            return RenewOutcome.NOT_OWNED;
        }
        long lease = quirk == Quirk.PERMIT_LEASE_IGNORED && h.kind() == io.locksmith.spi.Hold.Kind.PERMIT
                ? MemoryBackend.MINIMUM_LEASE.toNanos()
                : l.lease().toNanos();
        k.holders.put(
                l.owner(),
                new SharedHold(
                        h.kind(), h.slot(), new Entry(l.owner(), h.entry().token(), now + lease)));
        return RenewOutcome.RENEWED;
    }

    /** Removes the owner's shared hold of the key, if it has one. */
    boolean releaseShared(String key, io.locksmith.spi.Hold.Kind kind, String owner, Quirk quirk) {
        boolean released;
        synchronized (this) {
            Shared k = keys(kind, quirk).get(stored(key, kind, quirk));
            SharedHold h = k == null ? null : k.holders.get(owner);
            released = h != null && h.kind() == kind;
            if (released) {
                k.holders.remove(owner);
            }
        }
        if (released) {
            fire(key);
        }
        return released;
    }

    /** Ends a request that stopped waiting: its grant if one took effect unanswered, and a writer's mark. */
    void abandonShared(AcquireRequest r, Quirk quirk) {
        synchronized (this) {
            Shared k = keys(r.hold().kind(), quirk).get(stored(r.key(), r.hold().kind(), quirk));
            if (k != null && quirk != Quirk.ABANDON_LEAVES_THE_MARK) {
                k.marks.remove(r.owner());
            }
        }
        releaseShared(r.key(), r.hold().kind(), r.owner(), quirk);
        fire(r.key()); // readers held back by the mark may go now
    }

    /** @return the key's live holders of the kind's family, in grant order */
    synchronized List<io.locksmith.spi.LockInspector.Holder> sharedHolders(
            String key, io.locksmith.spi.Hold.Kind kind) {
        long now = System.nanoTime();
        Shared k = keys(kind, Quirk.NONE).get(key);
        if (k == null) {
            return List.of();
        }
        k.purge(now);
        return k.holders.values().stream()
                .map(h -> new io.locksmith.spi.LockInspector.Holder(
                        h.kind(),
                        new io.locksmith.spi.LockInspector.HolderState(
                                h.entry().owner(),
                                h.entry().token(),
                                Duration.ofNanos(Math.max(0, h.entry().expiresAt() - now)))))
                .toList();
    }

    /** Deletes the key's shared holders in every family, as an operator would; the fence counters stay. */
    void removeShared(String key) {
        synchronized (this) {
            shared.values().forEach(keys -> keys.remove(key));
        }
        fire(key);
    }

    private void granted(String key, Entry grant) {
        entries.put(key, grant);
        lastGrants.put(key, grant);
    }

    private long nextToken(String key) {
        return fences.merge(key, 1L, Long::sum);
    }

    private void fire(String key) {
        listeners.getOrDefault(key, List.of()).forEach(Runnable::run);
    }
}
