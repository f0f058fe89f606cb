package io.locksmith.internal;

import io.locksmith.LockBackendException;
import io.locksmith.LockHandle;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.BackendScheduler.Scheduled;
import io.locksmith.spi.Hold;
import io.locksmith.spi.ReleaseSignals;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Waits for a lock by retrying the backend's single attempt: at once when the backend signals a
 * release, otherwise after a jittered exponential back-off or, where the backend told the
 * holder's remaining lease, when that lease would run out. Attempts run on the client's workers,
 * one at a time; the deadline is enforced by the timer even if an attempt is slow, and a grant
 * that arrives after the future was completed (timed out, cancelled) is released at once.
 */
final class PollingAcquisition implements Runnable {

    /**
     * With release signals, a waiter still retries at least every second (or maximum back-off, if
     * longer): a lost signal, or a queued backend's next waiter that died, costs it about that.
     */
    private static final long SIGNALLED_SLEEP_CAP_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** A waiter's back-off ceiling halves eight times per maximum back-off it has waited ... */
    private static final int AGE_CAP_HALVINGS_PER_BACKOFF = 8;

    /** ... for at most five maximum back-offs (or a lease, if shorter). */
    private static final long AGE_CAP_SPAN_BACKOFFS = 5;

    private final DefaultDistributedLock lock;
    private final ClientRuntime runtime;
    private final AcquireRequest request;
    private final Duration wait;
    private final long deadline;
    private final Backoff backoff;
    private final CompletableFuture<LockHandle> result = new CompletableFuture<>();
    private final AtomicBoolean queued = new AtomicBoolean();
    private final Object attempting = new Object(); // one attempt at a time; never held by stop()
    private SignalHub.Membership subscription;
    private SignalHub.Mark mark; // the key's signals before the latest attempt, while not subscribed
    private Scheduled retry;
    private Scheduled expiry;
    private LockBackendException lastFailure;
    private volatile boolean uncertain; // an attempt failed without an answer: it may have taken the lock
    private volatile boolean attemptOut; // an attempt is on its way: if the wait ends now, its outcome is unknown
    private boolean signalsRefused; // the backend refused to subscribe: back off instead
    private long holderLeft = -1; // the holder's remaining lease from the last attempt, if the backend said
    private final long started;
    private boolean refused; // an attempt of this wait found the key held: a grant now is contended
    private int credit; // the credit of the yield this wait started with, 0 if it did not yield

    PollingAcquisition(
            DefaultDistributedLock lock, AcquireRequest request, long waitNanos, Duration wait, boolean uncertain) {
        this.lock = lock;
        this.runtime = lock.runtime();
        this.uncertain = uncertain;
        this.request = request;
        this.wait = wait;
        this.deadline = runtime.clock.nanoTime() + waitNanos;
        this.backoff = runtime.backoff();
        this.started = runtime.clock.nanoTime();
    }

    CompletableFuture<LockHandle> start() {
        arm();
        submit();
        return result;
    }

    /**
     * Starts the wait after the caller's own first attempt found the lock held: subscribes (on the
     * caller's thread) and makes one more attempt, or sleeps, without repeating the first attempt.
     *
     * @param holderLeft the holder's remaining lease from that attempt in nanoseconds, -1 if the
     *     backend did not say, or -2 if the attempt failed (then the next attempt comes at once)
     * @param mark the key's signals before that attempt ({@link SignalHub#mark}), or {@code null}
     */
    CompletableFuture<LockHandle> startAfter(long holderLeft, SignalHub.Mark mark) {
        this.mark = mark;
        arm();
        if (holderLeft == -2) {
            submit();
            return result;
        }
        synchronized (attempting) {
            this.refused = true;
            this.holderLeft = holderLeft;
            if (!result.isDone()) {
                plan();
            }
        }
        return result;
    }

    /**
     * Starts the wait with a pause instead of an attempt: this client has just released the key
     * after waiting for it, and yields so that another client's waiter can take it first.
     *
     * @param pauseNanos how long to yield
     * @param credit the yield's credit ({@link Yields#take})
     */
    CompletableFuture<LockHandle> startYielding(long pauseNanos, int credit) {
        this.credit = credit;
        arm();
        synchronized (this) {
            try {
                retry = runtime.clock.schedule(this::submit, Math.min(pauseNanos, deadline - runtime.clock.nanoTime()));
            } catch (RejectedExecutionException e) {
                result.completeExceptionally(runtime.closedWhileWaiting(lock.name()));
            }
        }
        return result;
    }

    private void arm() {
        result.whenComplete((handle, failure) -> stop(handle == null));
        synchronized (this) {
            expiry = runtime.clock.schedule(
                    () -> runtime.workers.run(this::expire), deadline - runtime.clock.nanoTime());
        }
    }

    /** Queues one attempt unless one is queued already. */
    private void submit() {
        if (result.isDone() || !queued.compareAndSet(false, true)) {
            return;
        }
        try {
            runtime.workers.execute(this);
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(runtime.closedWhileWaiting(lock.name()));
        }
    }

    @Override
    public void run() {
        synchronized (attempting) {
            queued.set(false);
            if (!result.isDone()) {
                attemptAndPlan();
            }
        }
    }

    private void attemptAndPlan() {
        try {
            holderLeft = -1;
            if (subscription == null && runtime.signals != null) {
                mark = runtime.signals.mark(request.key());
            }
            DefaultLockHandle handle;
            attemptOut = true;
            try {
                handle = lock.attempt(request, held -> held.remainingLease().ifPresent(d -> holderLeft = d.toNanos()));
            } finally {
                attemptOut = false;
            }
            if (handle != null) {
                int next = refused ? Yields.CREDIT : credit - 1;
                if (next > 0) {
                    handle.yieldCredit(next);
                }
                if (!result.complete(handle)) {
                    handle.close();
                }
                return;
            }
            if (result.isDone() && leavesMark()) {
                // the wait ended (and gave up the mark) while this attempt was out; the attempt,
                // finding the key held, may have left its mark again after that
                runtime.calls.abandon(request);
                return;
            }
            lastFailure = null;
            refused = true;
        } catch (LockBackendException e) {
            lastFailure = e;
            uncertain = true;
            if (result.isDone()) {
                runtime.calls.abandon(request); // the wait ended while this attempt was out
                return;
            }
        } catch (RuntimeException | Error e) {
            uncertain = true;
            result.completeExceptionally(e);
            return;
        }
        plan();
    }

    /** After an attempt that did not get the lock: subscribe and try once more, or sleep. */
    private void plan() {
        long remaining = deadline - runtime.clock.nanoTime();
        if (remaining <= 0) {
            expire();
            return;
        }
        if (subscription == null && lastFailure == null && !signalsRefused) {
            SignalHub signals = runtime.signals;
            if (signals != null) {
                // subscribe, then try again at once: a release between the attempt and the
                // subscription would otherwise go unnoticed until the next back-off; unless the
                // key's subscription was in effect before the attempt and heard nothing since
                SignalHub.Membership s = signals.subscribe(request.key(), request.owner(), this::wake, mark);
                mark = null;
                if (s == null) {
                    signalsRefused = true; // the hub logged why; back-off and the holder's lease still work
                } else {
                    synchronized (this) {
                        subscription = s;
                    }
                    if (result.isDone()) {
                        stop(false);
                    }
                    if (!s.caughtUp()) {
                        submit();
                        return;
                    }
                }
            }
        }
        synchronized (this) {
            long pause = Math.min(pause(), remaining);
            try {
                retry = runtime.clock.schedule(this::submit, pause);
            } catch (RejectedExecutionException e) {
                result.completeExceptionally(runtime.closedWhileWaiting(lock.name()));
            }
        }
    }

    /**
     * With release signals and a known remaining lease, a waiter sleeps until the holder's lease
     * would run out (the signal wakes it sooner): waiters do not poll while a holder renews. Else
     * it backs off, but never past the holder's lease.
     */
    private long pause() {
        long pause = untilNextAttempt();
        // a waiting writer's mark lasts twice its lease from its latest attempt: it tries again
        // within a lease, so that the mark never lapses while it waits
        return request.hold().kind() == Hold.Kind.WRITE
                ? Math.min(pause, request.lease().toNanos())
                : pause;
    }

    private long untilNextAttempt() {
        long jitter = ThreadLocalRandom.current()
                .nextLong(runtime.options.backoffMin().toNanos() + 1);
        if (holderLeft < 0) {
            return backoff.nextNanos(ageCap());
        }
        if (subscription != null && subscription.live()) {
            // the signal wakes it sooner; the cap bounds what a lost signal can cost
            long cap = Math.max(
                    SIGNALLED_SLEEP_CAP_NANOS, runtime.options.backoffMax().toNanos());
            return Math.min(holderLeft, cap) + jitter;
        }
        return Math.min(backoff.nextNanos(ageCap()), holderLeft + jitter);
    }

    /**
     * The highest back-off for a waiter of this age: the maximum at first, halving with every
     * eighth of the maximum the waiter has waited, down to the minimum. A waiter that has waited
     * long polls more often than one that just came, so that polling favours the longest waiter
     * instead of the newest. Once it has waited five maximum back-offs, or a whole lease if that
     * is shorter, the holder is more likely keeping the lock than handing it around, and the
     * waiter backs off to the maximum again: a long hold costs each waiter at most that many
     * seconds of polling at the minimum back-off.
     */
    private long ageCap() {
        long max = runtime.options.backoffMax().toNanos();
        long age = runtime.clock.nanoTime() - started;
        if (age >= Math.min(request.lease().toNanos(), AGE_CAP_SPAN_BACKOFFS * max) || max <= 0) {
            return max;
        }
        double halvings = age / (max / (double) AGE_CAP_HALVINGS_PER_BACKOFF);
        return halvings >= 62 ? 0 : (long) (max / Math.pow(2, halvings));
    }

    private void wake() {
        synchronized (this) {
            if (retry != null) {
                retry.cancel();
            }
            backoff.reset();
        }
        submit();
    }

    private void expire() {
        result.completeExceptionally(lock.waitEnded(wait, lastFailure));
    }

    /** Whether an attempt that finds the key held may leave a mark: a waiting writer's, or a waiter's place in a queue. */
    private boolean leavesMark() {
        return request.waits() || request.hold().kind() == Hold.Kind.WRITE;
    }

    private void stop(boolean withoutHandle) {
        if (withoutHandle && (uncertain || attemptOut || leavesMark())) {
            runtime.calls.abandon(request); // an unanswered attempt may hold the lock
        }
        ReleaseSignals.Subscription s;
        synchronized (this) {
            s = subscription;
            subscription = null;
            if (retry != null) {
                retry.cancel();
            }
            if (expiry != null) {
                expiry.cancel();
            }
        }
        if (s != null) {
            s.close();
        }
    }
}
