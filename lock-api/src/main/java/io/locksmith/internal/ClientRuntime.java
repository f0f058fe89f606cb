package io.locksmith.internal;

import io.locksmith.LockClientClosedException;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.spi.LockBackend;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a client's locks, handles and acquisitions share: the backend, the clock, the workers, the
 * held-lock table with its renewal and expiry sweep, the release-signal hub, the back-off policy
 * and the client's open/closed state. One per client; package-private, so that nothing outside the
 * core reaches into it.
 */
final class ClientRuntime {

    final LockBackend backend;
    final LockOptions options;
    final CoreClock clock;
    final Workers workers;
    final HeldTable held;
    final Renewal renewal;
    final ExpirySweep expiry;
    final BackendCalls calls;
    /** The backend's release signals shared among waiters, or {@code null} if it has none. */
    final SignalHub signals;

    final Listeners listeners = new Listeners();
    final Yields yields = new Yields();
    private final String ownerPrefix = ProcessHandle.current().pid() + "-"
            + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + "-";
    private final AtomicLong ownerSequence = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    // acquisitions in flight, each with its lock's name: close() ends them all
    private final Map<CompletableFuture<LockHandle>, String> acquiring = new ConcurrentHashMap<>();

    ClientRuntime(LockBackend backend, LockOptions options, CoreClock clock, Workers workers, HeldTable held) {
        this.backend = backend;
        this.options = options;
        this.clock = clock;
        this.workers = workers;
        this.held = held;
        this.renewal = new Renewal(backend, held, clock, workers, listeners);
        this.expiry = new ExpirySweep(held, clock);
        this.calls = new BackendCalls(backend, workers);
        this.signals = backend.releaseSignals()
                .map(r -> new SignalHub(r, clock, workers))
                .orElse(null);
    }

    /** @return the backend's description, credentials masked */
    String description() {
        return backend.description();
    }

    /** Adds a new handle to the table and has it renewed and swept. */
    void register(DefaultLockHandle handle) {
        if (!held.add(handle)) {
            return; // lost on arrival
        }
        if (handle.autoRenew()) {
            renewal.by(handle.nextRenewNanos());
        }
        expiry.by(handle.deadlineNanos());
    }

    /** Takes a handle out of the table: it is released or lost. */
    void forget(DefaultLockHandle handle) {
        held.remove(handle);
    }

    /** @return a new back-off for one wait, per the client's options */
    Backoff backoff() {
        return new Backoff(options.backoffMin(), options.backoffMax());
    }

    String keyFor(String name) {
        String prefix = options.prefix();
        return prefix.isEmpty() ? name : prefix + ":" + name;
    }

    String nextOwner() {
        return ownerPrefix + ownerSequence.incrementAndGet();
    }

    /**
     * Tracks an acquisition until it completes, so that closing the client ends it: a closed
     * client's timer and workers would never run its retries or its deadline.
     */
    CompletableFuture<LockHandle> track(CompletableFuture<LockHandle> acquisition, String lockName) {
        acquiring.put(acquisition, lockName);
        acquisition.whenComplete((h, e) -> acquiring.remove(acquisition));
        if (closed.get()) {
            acquisition.completeExceptionally(closedWhileWaiting(lockName));
        }
        return acquisition;
    }

    LockClientClosedException closedWhileWaiting(String lockName) {
        return new LockClientClosedException(lockName, description(), "waiting");
    }

    boolean isClosed() {
        return closed.get();
    }

    void ensureOpen(String lockName) {
        if (closed.get()) {
            throw new LockClientClosedException(lockName, description(), null);
        }
    }

    /** How long closing waits for the backend calls in flight before it closes the backend. */
    static final java.time.Duration CLOSE_WAIT = java.time.Duration.ofSeconds(2);

    /**
     * Closes once: ends every acquisition in flight, releases every held lock, stops the timer and
     * the workers, lets the backend calls in flight end (at most {@link #CLOSE_WAIT}), closes the
     * backend.
     *
     * @return whether this call closed it
     */
    boolean close() {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        try {
            for (Map.Entry<CompletableFuture<LockHandle>, String> a : acquiring.entrySet()) {
                a.getKey().completeExceptionally(closedWhileWaiting(a.getValue()));
            }
            for (DefaultLockHandle h : held.handles()) {
                h.close();
            }
            renewal.cancel();
            expiry.cancel();
            if (signals != null) {
                signals.close();
            }
        } finally {
            clock.shutdown();
            workers.shutdown();
            // an attempt on its way when its wait ended may still be granted: it releases that
            // grant itself, which needs the backend open
            workers.awaitQuiet(CLOSE_WAIT);
            backend.close();
        }
        return true;
    }
}
