package io.locksmith.internal;

import io.locksmith.spi.Durations;

import io.locksmith.LossReason;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import io.locksmith.spi.BackendScheduler.Scheduled;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a client's held locks: renews every lock that is due in one backend call per tick, marks
 * locks lost when their deadline passes, and runs loss callbacks on the workers.
 *
 * <p>Two timer tasks serve every held lock, whatever their number: the renewal tick, due at the
 * earliest renewal time, and the expiry sweep, due at the earliest deadline. A lock whose renewal
 * falls within half an interval of the tick is renewed with it, so locks taken at different times
 * fall into step and share one backend call.
 */
final class LeaseKeeper implements io.locksmith.spi.HeldLeases {

    private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);
    private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long MIN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final LockBackend backend;
    private final CoreClock clock;
    private final ExecutorService workers;
    private final ConcurrentHashMap<String, DefaultLockHandle> held = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, java.util.Set<DefaultLockHandle>> byKey = new ConcurrentHashMap<>();
    // owners with a backend call in flight, and losses the backend reported for them before their
    // handle was registered (a watch can fire before the grant reaches the core)
    private final java.util.Set<String> pending = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, LossReason> early = new ConcurrentHashMap<>();
    private final Timed tick = new Timed(this::scheduleTick, this::now);
    private final Timed sweep = new Timed(this::scheduleSweep, this::now);
    private final java.util.concurrent.atomic.AtomicBoolean renewing = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean rerun;
    private boolean renewalFailing;
    private boolean malformedReported;

    LeaseKeeper(LockBackend backend, CoreClock clock, ExecutorService workers) {
        this.backend = backend;
        this.clock = clock;
        this.workers = workers;
    }

    @Override
    public List<HeldLease> on(String key) {
        java.util.Set<DefaultLockHandle> onKey = byKey.get(key);
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
        List<HeldLease> out = new ArrayList<>(held.size());
        for (DefaultLockHandle h : held.values()) {
            out.add(h.lease(h.lease()));
        }
        return out;
    }

    void register(DefaultLockHandle handle) {
        byKey.computeIfAbsent(handle.key(), k -> ConcurrentHashMap.newKeySet()).add(handle);
        held.put(handle.owner(), handle);
        LossReason lostFirst = early.remove(handle.owner());
        if (lostFirst != null) {
            handle.lose(lostFirst);
            return;
        }
        if (handle.autoRenew()) {
            tick.by(handle.nextRenewNanos());
        }
        sweep.by(handle.deadlineNanos());
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

    /** Gives up an attempt whose outcome is unknown, so a grant it made does not sit for a lease. */
    void abandon(io.locksmith.spi.AcquireRequest request) {
        try {
            backend.abandon(request);
        } catch (RuntimeException e) {
            log.warn("could not give up an unanswered attempt on lock '{}' on {}; if it was granted, it frees"
                    + " itself when its lease runs out: {}", request.name(), backend.description(), e.toString());
        }
    }

    void forget(DefaultLockHandle handle) {
        held.remove(handle.owner(), handle);
        byKey.computeIfPresent(handle.key(), (k, set) -> {
            set.remove(handle);
            return set.isEmpty() ? null : set;
        });
    }

    /** Tells the backend, on a worker, that the core no longer counts a lease as held. */
    void lost(HeldLease lease, LossReason reason) {
        Runnable tell = () -> {
            try {
                backend.lost(lease, reason);
            } catch (RuntimeException e) {
                log.warn("{} could not end lock '{}' after it was lost ({}); it ends with its lease or session: {}",
                        backend.description(), lease.name(), reason, e.toString());
            }
        };
        try {
            workers.execute(tell);
        } catch (RejectedExecutionException e) {
            tell.run();
        }
    }

    void expiryBy(long deadline) {
        sweep.by(deadline);
    }

    void lose(String owner, LossReason reason) {
        DefaultLockHandle h = held.get(owner);
        if (h == null && pending.contains(owner)) {
            early.put(owner, reason);
            h = held.get(owner); // registered meanwhile: register() may have looked before the put
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
        for (DefaultLockHandle h : held.values()) {
            early.remove(h.owner());
            h.lose(reason);
        }
    }

    void releaseAll() {
        for (DefaultLockHandle h : held.values()) {
            h.close();
        }
        tick.cancel();
        sweep.cancel();
    }

    CoreClock clock() {
        return clock;
    }

    String backend() {
        return backend.description();
    }

    void validateLease(Duration lease) {
        if (lease.compareTo(backend.minimumLease()) < 0 || lease.compareTo(backend.maximumLease()) > 0) {
            throw new io.locksmith.LockConfigurationException("a lease of " + Durations.format(lease)
                    + " is outside what " + backend.description() + " can keep ("
                    + Durations.format(backend.minimumLease()) + " to " + Durations.format(backend.maximumLease()) + ")");
        }
    }

    RenewOutcome renewOne(HeldLease lease) {
        List<RenewOutcome> outcomes = backend.renew(List.of(lease));
        RenewOutcome outcome = outcomes == null || outcomes.size() != 1 ? null : outcomes.get(0);
        if (outcome == null) {
            throw new io.locksmith.LockBackendException(backend.description() + " answered a renewal of lock '"
                    + lease.name() + "' with " + (outcomes == null ? "nothing" : outcomes.size() + " outcomes"));
        }
        return outcome;
    }

    boolean renewsForAnyLease() {
        return backend.renewsForAnyLease();
    }

    void release(HeldLease lease) {
        backend.release(lease);
    }

    /** Runs loss callbacks on the workers, each on its own so that one that throws spoils no other. */
    void dispatch(List<Runnable> callbacks, String lockName) {
        for (Runnable r : callbacks) {
            Runnable guarded = () -> {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    log.warn("a loss callback of lock '{}' threw", lockName, e);
                }
            };
            try {
                workers.execute(guarded);
            } catch (RejectedExecutionException e) {
                guarded.run(); // the client is closing; run it here rather than drop it
            }
        }
    }

    private Scheduled scheduleTick(long delayNanos) {
        return clock.schedule(() -> workers.execute(this::renewDue), delayNanos);
    }

    private Scheduled scheduleSweep(long delayNanos) {
        return clock.schedule(this::expireOverdue, delayNanos);
    }

    private void renewDue() {
        tick.fired();
        rerun = true;
        // one tick at a time; a tick that fires while another runs asks it to run once more, so a
        // lock registered during a slow tick is never left without a scheduled renewal
        while (rerun && renewing.compareAndSet(false, true)) {
            rerun = false;
            try {
                renewDueNow();
            } catch (RuntimeException | Error e) {
                log.error("the renewal tick of {} failed; it goes on", backend.description(), e);
            } finally {
                renewing.set(false);
                scheduleNextTick();
            }
        }
    }

    private void renewDueNow() {
        long now = clock.nanoTime();
        List<DefaultLockHandle> due = new ArrayList<>();
        for (DefaultLockHandle h : held.values()) {
            if (h.autoRenew() && h.isActive() && h.nextRenewNanos() - now <= h.renewIntervalNanos() / 2) {
                due.add(h);
            }
        }
        if (!due.isEmpty()) {
            renew(due);
        }
    }

    private void scheduleNextTick() {
        boolean any = false;
        long next = 0;
        for (DefaultLockHandle h : held.values()) {
            if (h.autoRenew() && h.isActive() && (!any || h.nextRenewNanos() - next < 0)) {
                next = h.nextRenewNanos();
                any = true;
            }
        }
        if (any) {
            tick.by(next);
        }
    }

    private void renew(List<DefaultLockHandle> due) {
        List<HeldLease> leases = new ArrayList<>(due.size());
        for (DefaultLockHandle h : due) {
            leases.add(h.lease(h.lease()));
        }
        long sentAt = clock.nanoTime();
        List<RenewOutcome> outcomes;
        try {
            outcomes = checked(backend.renew(leases), due.size());
            renewalFailing = false;
        } catch (RuntimeException | Error e) {
            if (!renewalFailing) {
                log.warn("renewing {} lock(s) on {} failed; retrying while their leases last: {}",
                        due.size(), backend.description(), e.toString());
            }
            renewalFailing = true;
            outcomes = java.util.Collections.nCopies(due.size(), RenewOutcome.FAILED);
        }
        for (int i = 0; i < due.size(); i++) {
            DefaultLockHandle h = due.get(i);
            RenewOutcome outcome = outcomes.get(i);
            switch (outcome == null ? RenewOutcome.FAILED : outcome) {
                case RENEWED -> h.confirm(sentAt, leases.get(i).lease());
                case NOT_OWNED -> h.lose(LossReason.OWNERSHIP_LOST);
                default -> h.retryRenewalAt(clock.nanoTime() + retryDelay(h));
            }
        }
    }

    /** A provider's answer with one outcome per lease, or every lease failed (and said once). */
    private List<RenewOutcome> checked(List<RenewOutcome> outcomes, int expected) {
        if (outcomes != null && outcomes.size() == expected) {
            return outcomes;
        }
        if (!malformedReported) {
            malformedReported = true;
            log.error("{} answered a renewal of {} lock(s) with {} outcome(s); counting them all as failed"
                    + " (a provider bug)", backend.description(), expected, outcomes == null ? "no" : outcomes.size());
        }
        return java.util.Collections.nCopies(expected, RenewOutcome.FAILED);
    }

    private long now() {
        return clock.nanoTime();
    }

    private long retryDelay(DefaultLockHandle h) {
        long left = h.deadlineNanos() - clock.nanoTime();
        return Math.max(MIN_RETRY_NANOS, Math.min(MAX_RETRY_NANOS, Math.min(h.renewIntervalNanos() / 4, left / 4)));
    }

    private void expireOverdue() {
        sweep.fired();
        long now = clock.nanoTime();
        boolean any = false;
        long next = 0;
        for (DefaultLockHandle h : held.values()) {
            long d = h.deadlineNanos();
            if (d - now <= 0) {
                h.lose(LossReason.LEASE_EXPIRED);
            } else if (!any || d - next < 0) {
                next = d;
                any = true;
            }
        }
        if (any) {
            sweep.by(next);
        }
    }

    /** One timer task that runs no later than the earliest time asked of it. */
    private static final class Timed {
        private final java.util.function.LongFunction<Scheduled> schedule;
        private final java.util.function.LongSupplier now;
        private volatile boolean scheduled;
        private volatile long at;
        private Scheduled task;

        Timed(java.util.function.LongFunction<Scheduled> schedule, java.util.function.LongSupplier now) {
            this.schedule = schedule;
            this.now = now;
        }

        void by(long when) {
            if (scheduled && when - at >= 0) {
                return; // the common case: a task already runs early enough
            }
            synchronized (this) {
                if (scheduled && when - at >= 0) {
                    return;
                }
                if (task != null) {
                    task.cancel();
                }
                at = when;
                try {
                    task = schedule.apply(Math.max(0, when - now.getAsLong()));
                    scheduled = true;
                } catch (RejectedExecutionException e) {
                    scheduled = false; // the client is closing
                }
            }
        }

        synchronized void fired() {
            scheduled = false;
            task = null;
        }

        synchronized void cancel() {
            if (task != null) {
                task.cancel();
            }
            scheduled = false;
        }
    }
}
