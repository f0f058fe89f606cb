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
