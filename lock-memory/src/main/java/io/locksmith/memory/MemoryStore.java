package io.locksmith.memory;

import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The lock server of the in-memory backend: one entry per held key with its owner, token and
 * expiry on the monotonic clock, and one token counter for the whole store, so tokens keep
 * increasing for every name whatever happens to its entry. Each family of keys has a map of its
 * own, so that the lock, the semaphore and the read-write lock of one key never meet: locks in
 * {@code entries}, semaphores and read-write locks as {@link SharedKey}s in theirs. Release
 * signals go by key alone, as the SPI subscribes them: a release in one family also wakes the
 * other families' waiters of that key, who try again and find their own key as it was. The clock is the server's own, the
 * system's, as a real server's would be, never a client's {@code BackendContext.ticker()}: a
 * client on a clock moved by hand still meets leases that run in real time.
 */
final class MemoryStore {

    private static final ConcurrentHashMap<String, MemoryStore> GROUPS = new ConcurrentHashMap<>();

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, SharedKey> semaphores = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, SharedKey> readWriteLocks = new ConcurrentHashMap<>();
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
     * One attempt at a semaphore's permit or a read-write lock's side, as
     * {@link io.locksmith.spi.LockBackend#tryAcquire} describes it.
     *
     * @param backend the backend's description, for a permit mismatch
     * @throws io.locksmith.PermitMismatchException if a permit gives another number than the key's holders
     */
    AcquireResult tryAcquireShared(AcquireRequest request, String backend) {
        long now = System.nanoTime();
        return shared(
                request.hold().kind(),
                request.key(),
                key -> key.acquire(request, now, tokens::incrementAndGet, backend));
    }

    /** @return whether the owner still held the shared key under that token and its lease was extended */
    boolean renewShared(Hold.Kind kind, String key, String owner, long token, long leaseNanos) {
        long now = System.nanoTime();
        return shared(kind, key, k -> k.renew(owner, token, leaseNanos, now));
    }

    /** @return whether the owner still held the shared key under that token, and now does not */
    boolean releaseShared(Hold.Kind kind, String key, String owner, long token) {
        long now = System.nanoTime();
        boolean released = shared(kind, key, k -> k.release(owner, token, now));
        if (released) {
            signal(key);
        }
        return released;
    }

    /** @return whether the owner's grant or waiting mark was dropped; for an attempt given up */
    boolean abandonShared(Hold.Kind kind, String key, String owner) {
        long now = System.nanoTime();
        boolean dropped = shared(kind, key, k -> k.abandon(owner, now));
        if (dropped) {
            signal(key);
        }
        return dropped;
    }

    /** @return the live holders of a shared key in grant order, both sides for a read-write lock */
    List<LockInspector.Holder> holders(Hold.Kind kind, String key) {
        long now = System.nanoTime();
        return shared(kind, key, k -> k.holders(now));
    }

    /** Runs one step on a shared key inside its map's {@code compute}: atomic, and the key is dropped once empty. */
    private <T> T shared(Hold.Kind kind, String key, Function<SharedKey, T> step) {
        List<T> result = new ArrayList<>(1);
        family(kind).compute(key, (k, old) -> {
            SharedKey state = old == null ? new SharedKey() : old;
            result.add(step.apply(state));
            return state.isEmpty() ? null : state;
        });
        return result.get(0);
    }

    private ConcurrentHashMap<String, SharedKey> family(Hold.Kind kind) {
        return switch (kind) {
            case PERMIT -> semaphores;
            case READ, WRITE -> readWriteLocks;
            case EXCLUSIVE -> throw new IllegalArgumentException("a lock's key is not a shared key");
        };
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
            semaphores.clear();
            readWriteLocks.clear();
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

    /** Removes a shared key's state, every holder and waiting writer of it, as an operator (or a fault) would. */
    void remove(Hold.Kind kind, String key) {
        if (family(kind).remove(key) != null) {
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
