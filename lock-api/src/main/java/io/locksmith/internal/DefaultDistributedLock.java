package io.locksmith.internal;

import io.locksmith.DistributedLock;
import io.locksmith.LockBackendException;
import io.locksmith.LockException;
import io.locksmith.LockHandle;
import io.locksmith.LockInterruptedException;
import io.locksmith.LockListener;
import io.locksmith.LockListener.Outcome;
import io.locksmith.LockTimeoutException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Durations;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.Hold;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.Lock;

/**
 * A named lock of one runtime. The first attempt of a blocking acquisition runs on the caller's
 * thread, so an uncontended lock costs one backend call; waiting is handed to an
 * {@link PollingAcquisition} or, where the backend queues natively, a {@link QueuedAcquisition}.
 */
final class DefaultDistributedLock implements DistributedLock {

    /** What {@link #attempt} reports when its own grant ran out before its answer arrived. */
    static final Held LATE = new Held(null);

    private final ClientRuntime runtime;
    private final String name;
    private final String key;
    private final Duration lease;
    private final boolean autoRenew;
    private final Hold hold;
    private final String ownerSuffix; // appended to each request's owner (a leader's identity), or null

    DefaultDistributedLock(ClientRuntime runtime, String name, Duration lease, boolean autoRenew) {
        this(runtime, name, lease, autoRenew, Hold.EXCLUSIVE, null);
    }

    DefaultDistributedLock(
            ClientRuntime runtime, String name, Duration lease, boolean autoRenew, Hold hold, String ownerSuffix) {
        this.runtime = runtime;
        this.name = name;
        this.key = runtime.keyFor(name);
        this.lease = lease;
        this.autoRenew = autoRenew;
        this.hold = hold;
        this.ownerSuffix = ownerSuffix;
    }

    /** @return the kind of hold this lock's acquisitions ask for */
    Hold hold() {
        return hold;
    }

    /** @return the backend key */
    String key() {
        return key;
    }

    /** @return the lease each acquisition asks for */
    Duration lease() {
        return lease;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Optional<LockHandle> tryAcquire() {
        if (runtime.listeners.none()) {
            return Optional.ofNullable(tryOnce()); // the uncontended path: nothing to tell, nothing made for it
        }
        return Optional.ofNullable(observed(Duration.ZERO, Outcome.BUSY, this::tryOnce));
    }

    /**
     * Runs an acquisition, telling the client's listeners (if any) its start, its end and the hold
     * it began.
     */
    private DefaultLockHandle observed(
            Duration wait, Outcome ifNone, java.util.function.Supplier<DefaultLockHandle> how) {
        Listeners listeners = runtime.listeners;
        if (listeners.none()) {
            return how.get();
        }
        long start = runtime.clock.nanoTime();
        LockListener.AcquisitionStarted started =
                listeners.started(name, runtime.description(), Listeners.kind(hold), wait);
        DefaultLockHandle handle;
        try {
            handle = how.get();
        } catch (RuntimeException e) {
            listeners.ended(started, start, runtime.clock.nanoTime(), null, null, e);
            throw e;
        }
        listeners.ended(started, start, runtime.clock.nanoTime(), handle, ifNone, null);
        return handle;
    }

    private DefaultLockHandle tryOnce() {
        runtime.ensureOpen(name);
        AcquireRequest request = newRequest();
        runtime.yields.forget(key); // a one-shot attempt never yields, and the next wait need not
        try {
            for (int round = 0; ; round++) {
                boolean[] late = new boolean[1];
                DefaultLockHandle handle = attempt(request, held -> late[0] = held == LATE);
                if (handle != null || !late[0]) {
                    if (handle == null && hold.kind() == Hold.Kind.WRITE) {
                        runtime.calls.abandon(request); // a writer not waiting leaves no waiting mark
                    }
                    return handle;
                }
                // our own grant ran out during the call: nobody else holds the lock, so "held by
                // another owner" would be wrong; once more, and a second late grant is an error
                if (round == 1) {
                    throw new LockBackendException("acquiring lock '" + name + "' on " + runtime.description()
                            + " took longer than its lease of " + Durations.format(lease) + ", twice");
                }
            }
        } catch (RuntimeException e) {
            runtime.calls.abandon(request); // the attempt may have taken the lock without an answer
            throw e;
        }
    }

    @Override
    public Optional<LockHandle> tryAcquire(Duration wait) {
        try {
            return Optional.of(acquire(wait));
        } catch (LockTimeoutException e) {
            return Optional.empty();
        }
    }

    @Override
    public LockHandle acquire(Duration wait) {
        Arguments.notNegative("wait", wait);
        if (runtime.listeners.none()) {
            return waitFor(wait);
        }
        return observed(wait, Outcome.TIMEOUT, () -> waitFor(wait));
    }

    private DefaultLockHandle waitFor(Duration wait) {
        if (wait.isZero()) {
            DefaultLockHandle handle = tryOnce(); // one attempt, as tryAcquire() makes it
            if (handle == null) {
                throw timeout(wait);
            }
            return handle;
        }
        runtime.ensureOpen(name);
        long start = runtime.clock.nanoTime();
        AcquireRequest request = newRequest().waiting();
        boolean uncertain = false;
        long[] holderLeft = {-1};
        boolean queued = runtime.backend.queue().isPresent();
        int credit = queued ? 0 : yieldCredit(Waits.nanos(wait));
        SignalHub.Mark mark = null;
        if (!queued && credit == 0) {
            mark = runtime.signals == null ? null : runtime.signals.mark(request.key());
            DefaultLockHandle handle;
            try {
                handle = attempt(request, held -> held.remainingLease().ifPresent(d -> holderLeft[0] = d.toNanos()));
            } catch (LockBackendException e) {
                if (wait.isZero()) {
                    runtime.calls.abandon(request);
                    throw e;
                }
                handle = null; // the waiting loop retries and reports the failure if it persists
                uncertain = true;
            }
            if (handle != null) {
                return handle;
            }
            if (wait.isZero()) {
                throw timeout(wait);
            }
        }
        long remaining = Math.max(0, Waits.nanos(wait) - (runtime.clock.nanoTime() - start));
        // the caller's own attempt (or, for a queue, its own enqueue) starts the wait: the first
        // answer is not asked for again on a worker
        CompletableFuture<LockHandle> pending;
        if (queued) {
            pending = runtime.track(new QueuedAcquisition(this, request, remaining, wait, true).start(), name);
        } else {
            PollingAcquisition acquisition = new PollingAcquisition(this, request, remaining, wait, uncertain);
            pending = runtime.track(
                    credit > 0
                            ? acquisition.startYielding(yieldPause(), credit)
                            : acquisition.startAfter(uncertain ? -2 : holderLeft[0], mark),
                    name);
        }
        try {
            return (DefaultLockHandle) pending.get();
        } catch (InterruptedException e) {
            pending.cancel(false);
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(name, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LockTimeoutException) {
                throw timeout(wait);
            }
            if (e.getCause() instanceof LockException le) {
                throw le;
            }
            if (e.getCause() instanceof io.locksmith.LockClientClosedException closed) {
                throw new io.locksmith.LockClientClosedException(name, runtime.description(), "waiting");
            }
            if (e.getCause() instanceof IllegalStateException failed) {
                throw new IllegalStateException(failed.getMessage(), failed);
            }
            throw new LockBackendException(
                    "acquiring lock '" + name + "' failed on " + runtime.description(), e.getCause());
        }
    }

    @Override
    public CompletableFuture<LockHandle> acquireAsync(Duration wait) {
        Arguments.notNegative("wait", wait);
        Listeners listeners = runtime.listeners;
        if (listeners.none()) {
            runtime.ensureOpen(name);
            return startWaiting(newRequest(wait), Waits.nanos(wait), wait, false);
        }
        long start = runtime.clock.nanoTime();
        LockListener.AcquisitionStarted started =
                listeners.started(name, runtime.description(), Listeners.kind(hold), wait);
        CompletableFuture<LockHandle> pending;
        try {
            runtime.ensureOpen(name);
            pending = startWaiting(newRequest(wait), Waits.nanos(wait), wait, false);
        } catch (RuntimeException e) {
            listeners.ended(started, start, runtime.clock.nanoTime(), null, null, e);
            throw e;
        }
        pending.whenComplete((handle, failure) -> listeners.ended(
                started, start, runtime.clock.nanoTime(), (DefaultLockHandle) handle, Outcome.TIMEOUT, failure));
        return pending;
    }

    private CompletableFuture<LockHandle> startWaiting(
            AcquireRequest request, long waitNanos, Duration wait, boolean uncertain) {
        if (runtime.backend.queue().isPresent() && waitNanos > 0) {
            return runtime.track(new QueuedAcquisition(this, request, waitNanos, wait, false).start(), name);
        }
        int credit = yieldCredit(waitNanos);
        PollingAcquisition acquisition = new PollingAcquisition(this, request, waitNanos, wait, uncertain);
        return runtime.track(credit > 0 ? acquisition.startYielding(yieldPause(), credit) : acquisition.start(), name);
    }

    /**
     * Whether a wait yields before its first attempt: this client released the key within the
     * last maximum back-off after having waited for it, so other clients are likely waiting, and
     * the first attempt, made at once, would win the race against their polls ({@link Yields}).
     *
     * @return the yield's credit, or 0 (no yield, also for a wait too short to yield and still try)
     */
    private int yieldCredit(long waitNanos) {
        if (runtime.signals != null && runtime.signals.queues()) {
            return 0; // the backend's queue already gives a release to the waiters before this client
        }
        int credit = runtime.yields.take(
                key, runtime.clock.nanoTime(), runtime.options.backoffMax().toNanos());
        return credit > 0 && 4 * runtime.options.backoffMin().toNanos() < waitNanos ? credit : 0;
    }

    /**
     * How long a wait yields: without release signals time for the longest waiter (whose back-off
     * has shrunk toward the minimum) to poll ({@link Yields#pauseNanos}); with them one minimum
     * back-off, time for the signal to reach a waiter and for its attempt.
     */
    private long yieldPause() {
        long min = runtime.options.backoffMin().toNanos();
        return runtime.signals != null
                ? min
                : runtime.yields.pauseNanos(min, runtime.options.backoffMax().toNanos());
    }

    @Override
    public DistributedLock withLease(Duration lease) {
        Arguments.positive("lease", lease);
        runtime.calls.validateLease(lease);
        return new DefaultDistributedLock(runtime, name, lease, autoRenew, hold, ownerSuffix);
    }

    @Override
    public DistributedLock withAutoRenew(boolean autoRenew) {
        return new DefaultDistributedLock(runtime, name, lease, autoRenew, hold, ownerSuffix);
    }

    @Override
    public io.locksmith.LockStatus status() {
        runtime.ensureOpen(name);
        return runtime.backend
                .inspector()
                .map(i -> i.inspect(key)
                        .map(h -> io.locksmith.LockStatus.held(name, h.owner(), h.token(), h.remaining()))
                        .orElseGet(() -> io.locksmith.LockStatus.free(name)))
                .orElseGet(() -> io.locksmith.LockStatus.unknown(name));
    }

    @Override
    public Lock asLock() {
        return new JucLock(this);
    }

    AcquireRequest newRequest() {
        AcquireRequest request = AcquireRequest.of(
                key, name, ownerSuffix == null ? runtime.nextOwner() : runtime.nextOwner() + ownerSuffix, lease);
        return hold == Hold.EXCLUSIVE ? request : request.withHold(hold);
    }

    private AcquireRequest newRequest(Duration wait) {
        return wait.isZero() ? newRequest() : newRequest().waiting();
    }

    /** One backend attempt; returns the new handle or null if the lock is held. */
    DefaultLockHandle attempt(AcquireRequest request) {
        return attempt(request, null);
    }

    /**
     * One backend attempt; when the lock is held, hands the backend's answer to {@code held}, or
     * {@link #LATE} when the attempt's own grant ran out before its answer came.
     */
    DefaultLockHandle attempt(AcquireRequest request, java.util.function.Consumer<Held> held) {
        long start = runtime.clock.nanoTime();
        AcquireResult result;
        runtime.held.expect(request.owner());
        try {
            result = runtime.backend.tryAcquire(request);
            if (result instanceof Grant grant) {
                long confirmed = grant.confirmedAt().orElse(start);
                DefaultLockHandle handle = adopt(request, grant, confirmed - start < 0 ? confirmed : start);
                if (handle.isHeld()) {
                    return handle;
                }
                // the attempt took longer than the lease: the grant may already have run out on the
                // server, so it is given back rather than handed out as a lock nobody can rely on
                handle.close();
                if (held != null) {
                    held.accept(handle.wasLost() ? Held.UNKNOWN : LATE);
                }
                return null;
            }
        } finally {
            runtime.held.settle(request.owner());
            runtime.yields.attemptTook(runtime.clock.nanoTime() - start);
        }
        if (held != null && result instanceof Held h) {
            held.accept(h);
        }
        return null;
    }

    /** Makes a handle of a grant; if the client closed meanwhile, gives the grant back. */
    DefaultLockHandle adopt(AcquireRequest request, Grant grant, long startNanos) {
        DefaultLockHandle handle =
                new DefaultLockHandle(runtime, request, grant, startNanos, autoRenew, renewInterval());
        runtime.register(handle);
        if (runtime.isClosed()) {
            runtime.workers.run(handle::close); // off the caller's thread, which may be a backend's I/O thread
            throw new io.locksmith.LockClientClosedException(name, runtime.description(), "acquiring");
        }
        return handle;
    }

    private Duration renewInterval() {
        return runtime.options
                .explicitRenewInterval()
                .filter(interval -> interval.compareTo(lease) < 0)
                .orElse(lease.dividedBy(3));
    }

    /**
     * @return what a wait that ran out reports: the last backend failure, if its last attempt
     *     failed (the backend was unreachable), else a timeout
     */
    LockException waitEnded(Duration wait, LockBackendException lastFailure) {
        if (lastFailure == null) {
            return timeout(wait);
        }
        return new LockBackendException(
                "could not acquire lock '" + name + "' within " + Durations.format(wait) + ": "
                        + lastFailure.getMessage(),
                lastFailure);
    }

    LockTimeoutException timeout(Duration wait) {
        return new LockTimeoutException(name, wait, runtime.description());
    }

    ClientRuntime runtime() {
        return runtime;
    }

    @Override
    public String toString() {
        return (hold == Hold.EXCLUSIVE ? "DistributedLock[" + name : "DistributedLock[" + name + ", " + hold)
                + ", lease=" + Durations.format(lease) + ", renew=" + autoRenew + "]";
    }
}
