package io.locksmith.internal;

import io.locksmith.LossReason;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.RenewOutcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews a client's held locks: one timer task, due at the earliest renewal of any of them, renews
 * every lock that is due in one backend call (or in calls of the backend's {@link
 * LockBackend#renewalBatchLimit()}, one after another). A lock whose renewal falls within half an
 * interval of the tick is renewed with it, so locks taken at different times fall into step and
 * share the call.
 */
final class Renewal {

    private static final Logger log = LoggerFactory.getLogger(Renewal.class);
    private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long MIN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final LockBackend backend;
    private final HeldTable held;
    private final CoreClock clock;
    private final Listeners listeners;
    private final TimerSlot tick;
    private final AtomicBoolean renewing = new AtomicBoolean();
    private volatile boolean rerun;
    private boolean failing;
    private boolean malformedReported;

    Renewal(LockBackend backend, HeldTable held, CoreClock clock, Workers workers, Listeners listeners) {
        this.backend = backend;
        this.listeners = listeners;
        this.held = held;
        this.clock = clock;
        this.tick = new TimerSlot(clock, () -> workers.run(this::renewDue));
    }

    /** Makes a tick come by {@code when}. */
    void by(long when) {
        tick.by(when);
    }

    void cancel() {
        tick.cancel();
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
                scheduleNext();
            }
        }
    }

    private void renewDueNow() {
        long now = clock.nanoTime();
        List<Due> due = new ArrayList<>();
        for (DefaultLockHandle h : held.handles()) {
            if (h.autoRenew() && h.isActive() && h.nextRenewNanos() - now <= h.renewIntervalNanos() / 2) {
                due.add(new Due(h, h.deadlineNanos() - now));
            }
        }
        if (!due.isEmpty()) {
            // the lease closest to its end goes first: a provider that gets through only the start
            // of a long batch (one request per lease, a slow server) reaches next time the ones it
            // did not reach this time, instead of cutting the same ones until they run out
            due.sort(Comparator.comparingLong(Due::left));
            List<DefaultLockHandle> handles = due.stream().map(Due::handle).toList();
            // each call's leases are credited from when that call was sent (see renewalBatchLimit)
            int limit = Math.max(1, backend.renewalBatchLimit());
            for (int from = 0; from < handles.size(); from += limit) {
                renew(handles.subList(from, Math.min(handles.size(), from + limit)));
            }
        }
    }

    /** A handle due for renewal and the lease it had left when the tick began. */
    private record Due(DefaultLockHandle handle, long left) {}

    private void scheduleNext() {
        boolean any = false;
        long next = 0;
        for (DefaultLockHandle h : held.handles()) {
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
            failing = false;
        } catch (RuntimeException | Error e) {
            if (!failing) {
                log.warn(
                        "renewing {} lock(s) on {} failed; retrying while their leases last: {}",
                        due.size(),
                        backend.description(),
                        e.toString());
            }
            failing = true;
            outcomes = Collections.nCopies(due.size(), RenewOutcome.FAILED);
        }
        if (!listeners.none()) {
            report(outcomes, clock.nanoTime() - sentAt);
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

    private void report(List<RenewOutcome> outcomes, long tookNanos) {
        int renewed = 0;
        int notOwned = 0;
        for (RenewOutcome o : outcomes) {
            if (o == RenewOutcome.RENEWED) {
                renewed++;
            } else if (o == RenewOutcome.NOT_OWNED) {
                notOwned++;
            }
        }
        listeners.renewed(new io.locksmith.LockListener.Renewal(
                backend.description(),
                outcomes.size(),
                renewed,
                notOwned,
                outcomes.size() - renewed - notOwned,
                java.time.Duration.ofNanos(Math.max(0, tookNanos))));
    }

    /** A provider's answer with one outcome per lease, or every lease failed (and said once). */
    private List<RenewOutcome> checked(List<RenewOutcome> outcomes, int expected) {
        if (outcomes != null && outcomes.size() == expected) {
            return outcomes;
        }
        if (!malformedReported) {
            malformedReported = true;
            log.error(
                    "{} answered a renewal of {} lock(s) with {} outcome(s); counting them all as failed"
                            + " (a provider bug)",
                    backend.description(),
                    expected,
                    outcomes == null ? "no" : outcomes.size());
        }
        return Collections.nCopies(expected, RenewOutcome.FAILED);
    }

    private long retryDelay(DefaultLockHandle h) {
        long left = h.deadlineNanos() - clock.nanoTime();
        return Math.max(MIN_RETRY_NANOS, Math.min(MAX_RETRY_NANOS, Math.min(h.renewIntervalNanos() / 4, left / 4)));
    }
}
