package io.locksmith.internal;

import io.locksmith.LockBackendException;
import io.locksmith.LockHandle;
import io.locksmith.LockNotHeldException;
import io.locksmith.LossReason;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Durations;
import io.locksmith.spi.Grant;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One grant, held until closed or lost. The lease's deadline is kept on the local monotonic
 * clock, counted from when the acquisition or renewal that the backend confirmed was sent, so
 * {@link #isHeld()} turns false on time even if this process was paused.
 */
final class DefaultLockHandle implements LockHandle {

    private static final Logger log = LoggerFactory.getLogger(DefaultLockHandle.class);

    private static final int HELD = 0;
    private static final int RELEASED = 1;
    private static final int LOST = 2;
    private static final AtomicIntegerFieldUpdater<DefaultLockHandle> STATE =
            AtomicIntegerFieldUpdater.newUpdater(DefaultLockHandle.class, "state");
    private static final AtomicIntegerFieldUpdater<DefaultLockHandle> CLOSED =
            AtomicIntegerFieldUpdater.newUpdater(DefaultLockHandle.class, "closed");

    private final ClientRuntime runtime;
    private final String name;
    private final String key;
    private final String owner;
    private final long token;
    private final HeldLease heldLease;
    private final boolean autoRenew;
    private final long renewIntervalNanos;
    private volatile Duration lease;
    private volatile long deadlineNanos;
    private volatile long confirmedAt;
    private volatile long nextRenewNanos;
    private volatile int state;
    private volatile int closed;
    private volatile long announcedNanos; // when it was handed out to a listened-to caller
    private volatile io.locksmith.LockListener.Hold announced; // told to listeners as handed out
    private volatile int yieldCredit; // > 0: granted to a contended wait; its client's next wait yields
    private LossReason lossReason;
    private List<Runnable> callbacks;
    private CompletableFuture<LossReason> lost;

    DefaultLockHandle(
            ClientRuntime runtime,
            AcquireRequest request,
            Grant grant,
            long startNanos,
            boolean autoRenew,
            Duration renewInterval) {
        this.runtime = runtime;
        this.name = request.name();
        this.key = request.key();
        this.owner = request.owner();
        this.token = grant.token();
        this.heldLease = HeldLease.of(request, grant);
        this.autoRenew = autoRenew;
        this.renewIntervalNanos = renewInterval.toNanos();
        this.lease = request.lease();
        this.confirmedAt = startNanos;
        this.deadlineNanos = startNanos + lease.toNanos();
        this.nextRenewNanos = startNanos + renewIntervalNanos;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long fencingToken() {
        return token;
    }

    @Override
    public boolean isHeld() {
        return state == HELD && runtime.clock.nanoTime() - deadlineNanos < 0;
    }

    @Override
    public Duration remainingLease() {
        long left = deadlineNanos - runtime.clock.nanoTime();
        return state == HELD && left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    @Override
    public LockHandle onLost(Runnable callback) {
        java.util.Objects.requireNonNull(callback, "callback");
        synchronized (this) {
            if (lossReason == null) {
                if (callbacks == null) {
                    callbacks = new ArrayList<>(2);
                }
                callbacks.add(callback);
                return this;
            }
        }
        runtime.workers.callbacks(List.of(callback), name);
        return this;
    }

    @Override
    public synchronized CompletionStage<LossReason> whenLost() {
        if (lost == null) {
            lost = lossReason == null ? new CompletableFuture<>() : CompletableFuture.completedFuture(lossReason);
        }
        return lost.minimalCompletionStage();
    }

    @Override
    public void extend(Duration newLease) {
        Arguments.positive("lease", newLease);
        runtime.calls.validateLease(newLease);
        if (state == RELEASED) {
            throw new LockNotHeldException(name, "it was released");
        }
        if (!isHeld()) {
            lose(LossReason.LEASE_EXPIRED);
            throw new LockNotHeldException(name, "it was lost (" + lossReason() + ")");
        }
        if (!newLease.equals(lease) && !runtime.calls.renewsForAnyLease()) {
            throw new UnsupportedOperationException("cannot extend lock '" + name + "' to " + Durations.format(newLease)
                    + ": " + runtime.description() + " renews a lease only for the length it was granted ("
                    + Durations.format(lease) + ")");
        }
        long start = runtime.clock.nanoTime();
        RenewOutcome outcome = runtime.calls.renewOne(lease(newLease));
        switch (outcome) {
            case RENEWED -> {
                lease = newLease;
                confirm(start, newLease);
            }
            case NOT_OWNED -> {
                lose(LossReason.OWNERSHIP_LOST);
                throw new LockNotHeldException(name, "the backend reports another owner or none");
            }
            default ->
                throw new LockBackendException("could not extend lock '" + name + "' on " + runtime.description()
                        + "; its current lease has " + Durations.format(remainingLease()) + " left");
        }
    }

    @Override
    public void close() {
        if (!CLOSED.compareAndSet(this, 0, 1)) {
            return;
        }
        boolean wasHeld = STATE.compareAndSet(this, HELD, RELEASED);
        if (wasHeld) {
            runtime.forget(this);
            int credit = yieldCredit;
            if (credit > 0) {
                runtime.yields.released(key, runtime.clock.nanoTime(), credit);
            }
            io.locksmith.LockListener.Hold hold = announced;
            if (hold != null) {
                runtime.listeners.released(new io.locksmith.LockListener.HoldEnded(hold, heldFor(), null));
            }
        } else if (lossReason() != LossReason.LEASE_EXPIRED) {
            return; // taken by another owner or gone with the session: nothing of ours to release
        }
        try {
            runtime.calls.release(lease(lease));
        } catch (RuntimeException e) {
            log.warn(
                    "could not release lock '{}' on {}; it frees itself when its lease runs out: {}",
                    name,
                    runtime.description(),
                    e.toString());
        }
    }

    /**
     * Marks the handle as granted to a contended wait: once it is released, as many more waits
     * of this client for the key may yield first ({@link Yields}).
     */
    void yieldCredit(int credit) {
        yieldCredit = credit;
    }

    /**
     * Lets the grant run out instead of releasing it (a rate limiter's permit, held for its whole
     * window): the handle leaves the held-lock table, listeners hear it released, and a whole lease
     * after this call the backend is told it is lost, so that one whose key would outlive the lease
     * (a ZooKeeper node, an etcd key) removes it then. Closing the client does not release it.
     */
    void spend() {
        if (!CLOSED.compareAndSet(this, 0, 1) || !STATE.compareAndSet(this, HELD, RELEASED)) {
            return;
        }
        runtime.forget(this);
        io.locksmith.LockListener.Hold hold = announced;
        if (hold != null) {
            runtime.listeners.released(new io.locksmith.LockListener.HoldEnded(hold, heldFor(), null));
        }
        // a whole lease from now, when the grant's answer is in: the server granted it at some point
        // after the attempt was sent (or a queued entry's lease was last confirmed), at the latest
        // now, so a key the backend removes then is held at least a lease by the server's account
        try {
            runtime.clock.schedule(
                    () -> runtime.workers.run(() -> runtime.calls.lost(heldLease, LossReason.LEASE_EXPIRED)),
                    lease.toNanos());
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // the client closed: its session or lease, which kept such a key, ends with it
        }
    }

    /** Marks the handle lost, once, and runs its callbacks off the caller's thread. */
    void lose(LossReason reason) {
        if (!STATE.compareAndSet(this, HELD, LOST)) {
            return;
        }
        runtime.forget(this);
        runtime.calls.lost(heldLease, reason);
        List<Runnable> toRun;
        CompletableFuture<LossReason> future;
        synchronized (this) {
            lossReason = reason;
            toRun = callbacks;
            callbacks = null;
            future = lost;
        }
        log.warn("lock '{}' (token {}) on {} was lost: {}", name, token, runtime.description(), reason);
        io.locksmith.LockListener.Hold hold = announced;
        if (hold != null && !runtime.listeners.none()) {
            io.locksmith.LockListener.HoldEnded ended =
                    new io.locksmith.LockListener.HoldEnded(hold, heldFor(), reason);
            runtime.workers.run(() -> runtime.listeners.lost(ended)); // a loss may be seen on a timer or I/O thread
        }
        if (future != null) {
            runtime.workers.callbacks(List.of(() -> future.complete(reason)), name);
        }
        if (toRun != null) {
            runtime.workers.callbacks(toRun, name);
        }
    }

    /**
     * Records a renewal the backend confirmed, sent at {@code sentAt} for {@code sentLease}; the
     * latest sent wins, with the lease it asked for: a renewal tick that raced an extend and was
     * sent after it left the server with the tick's lease, not the extend's.
     */
    synchronized void confirm(long sentAt, Duration sentLease) {
        if (sentAt - confirmedAt >= 0) {
            confirmedAt = sentAt;
            deadlineNanos = sentAt + sentLease.toNanos();
            nextRenewNanos = sentAt + renewIntervalNanos;
            runtime.expiry.by(deadlineNanos);
        }
    }

    /** Notes that the handle was handed out and told to listeners; its end will be told too. */
    io.locksmith.LockListener.Hold announce(String backend) {
        announcedNanos = runtime.clock.nanoTime();
        io.locksmith.LockListener.Hold hold =
                new io.locksmith.LockListener.Hold(name, backend, Listeners.kind(heldLease.hold()), token);
        announced = hold;
        return hold;
    }

    private Duration heldFor() {
        return Duration.ofNanos(Math.max(0, runtime.clock.nanoTime() - announcedNanos));
    }

    /** @return whether the handle was lost (not released, not merely past its deadline) */
    boolean wasLost() {
        return state == LOST;
    }

    void retryRenewalAt(long when) {
        nextRenewNanos = when;
    }

    private synchronized LossReason lossReason() {
        return lossReason;
    }

    HeldLease lease(Duration forLease) {
        return heldLease.withLease(forLease);
    }

    Duration lease() {
        return lease;
    }

    String owner() {
        return owner;
    }

    String key() {
        return key;
    }

    boolean autoRenew() {
        return autoRenew;
    }

    boolean isActive() {
        return state == HELD;
    }

    long renewIntervalNanos() {
        return renewIntervalNanos;
    }

    long nextRenewNanos() {
        return nextRenewNanos;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    public String toString() {
        return "LockHandle[" + name + ", token=" + token + ", "
                + (isHeld() ? "held" : state == RELEASED ? "released" : "not held") + "]";
    }
}
