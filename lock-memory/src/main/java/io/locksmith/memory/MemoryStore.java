package io.locksmith.memory;

import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lock server of the in-memory backend: one entry per held key with its owner, token and
 * expiry on the monotonic clock, and one token counter for the whole store, so tokens keep
 * increasing for every name whatever happens to its entry. The clock is the server's own, the
 * system's, as a real server's would be, never a client's {@code BackendContext.ticker()}: a
 * client on a clock moved by hand still meets leases that run in real time.
 */
final class MemoryStore {

    private static final ConcurrentHashMap<String, MemoryStore> GROUPS = new ConcurrentHashMap<>();

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    // per key, one callback per subscribed client, as a server keeps a channel's subscribers
    private final ConcurrentHashMap<String, Set<Runnable>> subscribers = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong();
    private volatile boolean down;

    private record Entry(String owner, long token, long expiresAt) {
        boolean expired(long now) {
            return expiresAt - now <= 0;
        }
    }

    static MemoryStore group(String name) {
        return GROUPS.computeIfAbsent(name, n -> new MemoryStore());
    }

    /** @return the grant, or the holder's remaining lease if another owner holds the key */
    AcquireResult tryAcquire(String key, String owner, long leaseNanos) {
        long now = System.nanoTime();
        AcquireResult[] result = new AcquireResult[1];
        entries.compute(key, (k, old) -> {
            if (old != null && !old.expired(now)) {
                result[0] = Held.remaining(Duration.ofNanos(old.expiresAt - now));
                return old;
            }
            Entry taken = new Entry(owner, tokens.incrementAndGet(), now + leaseNanos);
            result[0] = Grant.of(taken.token);
            return taken;
        });
        return result[0];
    }

    /** @return whether the owner still held the key and its lease was extended */
    boolean renew(String key, String owner, long token, long leaseNanos) {
        long now = System.nanoTime();
        boolean[] renewed = new boolean[1];
        entries.computeIfPresent(key, (k, e) -> {
            if (e.expired(now)) {
                return null;
            }
            if (e.owner.equals(owner) && e.token == token) {
                renewed[0] = true;
                return new Entry(owner, token, now + leaseNanos);
            }
            return e;
        });
        return renewed[0];
    }

    /** @return whether the owner still held the key, which is now free */
    boolean release(String key, String owner, long token) {
        boolean[] released = new boolean[1];
        entries.computeIfPresent(key, (k, e) -> {
            if (e.owner.equals(owner) && e.token == token) {
                released[0] = !e.expired(System.nanoTime());
                return null;
            }
            return e;
        });
        if (released[0]) {
            signal(key);
        }
        return released[0];
    }

    /** @return the live holder of a key, or null */
    io.locksmith.spi.LockInspector.HolderState holder(String key) {
        Entry e = entries.get(key);
        long now = System.nanoTime();
        return e == null || e.expired(now)
                ? null
                : new io.locksmith.spi.LockInspector.HolderState(e.owner, e.token, Duration.ofNanos(e.expiresAt - now));
    }

    /** @return whether the key's owner held it and it is now free; for an attempt whose outcome is unknown */
    boolean abandon(String key, String owner) {
        boolean[] removed = new boolean[1];
        entries.computeIfPresent(key, (k, e) -> {
            removed[0] = e.owner.equals(owner);
            return removed[0] ? null : e;
        });
        if (removed[0]) {
            signal(key);
        }
        return removed[0];
    }

    /**
     * Restarts the store as a lock server without persistence restarts: unreachable for
     * {@code outage}, then back with no lock held. The token counter survives, as the fencing
     * promise needs; waiters are signalled, as a resubscribing client would try again.
     */
    void restart(Duration outage) {
        down = true;
        try {
            entries.clear();
            long back = System.nanoTime() + outage.toNanos();
            for (long left; (left = back - System.nanoTime()) > 0; ) {
                java.util.concurrent.locks.LockSupport.parkNanos(left); // the outage's length is the point
            }
        } finally {
            down = false;
        }
        subscribers.keySet().forEach(this::signal);
    }

    /** @return whether the store is restarting, so that every call fails as at a server that is down */
    boolean isDown() {
        return down;
    }

    /** Removes a key's entry whoever holds it, as an operator (or a fault) would. */
    void remove(String key) {
        if (entries.remove(key) != null) {
            signal(key);
        }
    }

    Runnable subscribe(String key, Runnable onRelease) {
        subscribers.computeIfAbsent(key, k -> new CopyOnWriteArraySet<>()).add(onRelease);
        return () -> subscribers.computeIfPresent(key, (k, set) -> {
            set.remove(onRelease);
            return set.isEmpty() ? null : set;
        });
    }

    private void signal(String key) {
        Set<Runnable> waiting = subscribers.get(key);
        if (waiting != null) {
            waiting.forEach(Runnable::run);
        }
    }
}
