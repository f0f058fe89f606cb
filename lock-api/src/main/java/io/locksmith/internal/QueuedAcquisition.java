package io.locksmith.internal;

import io.locksmith.LockBackendException;
import io.locksmith.LockHandle;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.BackendScheduler.Scheduled;
import io.locksmith.spi.Grant;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

/**
 * Waits for a lock in the backend's own queue. The deadline, cancellation and a grant that races
 * them are handled here: the ticket is cancelled, and a grant made anyway is released. A ticket
 * that fails (its entry or lease gone, the backend unreachable) is cancelled and the waiter
 * enqueues again after a back-off, until the wait runs out; the last failure is then reported.
 *
 * <p>A queued grant rests on a lease the backend kept alive while the waiter queued, last
 * confirmed by a request the core never saw. Its local deadline counts from when that request was
 * sent, which the backend tells ({@link Grant#confirmedAt()}); where it does not, the grant is
 * renewed once before it is handed out and counts from that renewal's send.
 */
final class QueuedAcquisition {

    private final DefaultDistributedLock lock;
    private final ClientRuntime runtime;
    private final AcquireRequest request;
    private final Duration wait;
    private final long deadline;
    private final Backoff backoff;
    private final CompletableFuture<LockHandle> result = new CompletableFuture<>();
    private volatile QueuedAcquirer.Ticket ticket;
    private volatile Scheduled expiry;
    private volatile Scheduled retry;
    private volatile LockBackendException lastFailure;
    // a caller blocked in acquire() waits for the result: it enqueues on its own thread, and a grant
    // that needs no backend call is handed out on the thread that made it; an asynchronous caller's
    // future completes on a worker, never on the backend's I/O thread
    private final boolean callerWaits;

    QueuedAcquisition(
            DefaultDistributedLock lock, AcquireRequest request, long waitNanos, Duration wait, boolean callerWaits) {
        this.lock = lock;
        this.runtime = lock.runtime();
        this.callerWaits = callerWaits;
        this.request = request;
        this.wait = wait;
        this.deadline = runtime.clock.nanoTime() + waitNanos;
        this.backoff = runtime.backoff();
    }

    CompletableFuture<LockHandle> start() {
        result.whenComplete((handle, failure) -> stop(handle == null));
        try {
            expiry = runtime.clock.schedule(
                    () -> runtime.workers.run(this::expire), deadline - runtime.clock.nanoTime());
            runtime.held.expect(request.owner());
            if (callerWaits) {
                enqueue();
            } else {
                runtime.workers.execute(this::enqueue);
            }
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(runtime.closedWhileWaiting(lock.name()));
        }
        return result;
    }

    private void enqueue() {
        if (result.isDone()) {
            return;
        }
        QueuedAcquirer.Ticket t;
        try {
            t = runtime.backend.queue().orElseThrow().enqueue(request);
        } catch (LockBackendException e) {
            failedTicket(null, e);
            return;
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return;
        }
        ticket = t;
        t.granted().whenComplete((grant, failure) -> granted(t, grant, failure));
        // a ticket granted at once may already be this wait's handle: only a waiting entry is
        // cancelled, never a granted one (cancelling deletes the entry, and with it the lock)
        if (result.isDone() && !t.granted().isDone()) {
            t.cancel();
        }
    }

    private void granted(QueuedAcquirer.Ticket t, Grant grant, Throwable failure) {
        long arrived = runtime.clock.nanoTime();
        if (failure != null) {
            Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause()
                    : failure;
            if (cause instanceof LockBackendException e) {
                failedTicket(t, e);
            } else {
                result.completeExceptionally(new LockBackendException(
                        "waiting for lock '" + lock.name() + "' failed on " + runtime.description(), cause));
            }
            return;
        }
        if (callerWaits && grant.confirmedAt().isPresent()) {
            handOutHere(t, grant, arrived);
        } else {
            runtime.workers.run(() -> handOut(t, grant, arrived));
        }
    }

    /**
     * Hands a confirmed grant to a blocked caller on the thread that made it (a backend's I/O
     * thread): nothing here calls the backend; every path that would (the wait already ended, the
     * grant no longer held, the client closing) goes on on a worker.
     */
    private void handOutHere(QueuedAcquirer.Ticket t, Grant grant, long arrived) {
        if (result.isDone() || runtime.isClosed()) {
            runtime.workers.run(() -> handOut(t, grant, arrived));
            return;
        }
        DefaultLockHandle handle;
        try {
            handle = lock.adopt(request, grant, Math.min(grant.confirmedAt().getAsLong(), arrived));
        } catch (io.locksmith.LockClientClosedException closed) {
            result.completeExceptionally(closed);
            return;
        }
        if (!handle.isHeld()) {
            runtime.workers.run(() -> {
                handle.close();
                failedTicket(t, notHeldOnArrival());
            });
            return;
        }
        if (!result.complete(handle)) {
            runtime.workers.run(handle::close);
        }
    }

    private LockBackendException notHeldOnArrival() {
        return new LockBackendException("the grant of lock '" + lock.name() + "' on " + runtime.description()
                + " was no longer held when it arrived");
    }

    private void handOut(QueuedAcquirer.Ticket t, Grant grant, long arrived) {
        if (result.isDone()) {
            release(grant);
            return;
        }
        long confirmed;
        if (grant.confirmedAt().isPresent()) {
            confirmed = Math.min(grant.confirmedAt().getAsLong(), arrived);
        } else {
            confirmed = runtime.clock.nanoTime();
            RenewOutcome outcome;
            try {
                outcome = runtime.calls.renewOne(heldLease(grant));
            } catch (LockBackendException e) {
                release(grant);
                failedTicket(t, e);
                return;
            }
            if (outcome != RenewOutcome.RENEWED) {
                release(grant);
                failedTicket(
                        t,
                        new LockBackendException("the grant of lock '" + lock.name() + "' on " + runtime.description()
                                + " could not be confirmed (" + outcome + ")"));
                return;
            }
        }
        DefaultLockHandle handle;
        try {
            handle = lock.adopt(request, grant, confirmed);
        } catch (io.locksmith.LockClientClosedException closed) {
            result.completeExceptionally(closed);
            return;
        }
        if (!handle.isHeld()) {
            // lost before it was handed out, or its lease ran out by its confirmation: not a lock
            handle.close();
            failedTicket(t, notHeldOnArrival());
            return;
        }
        if (!result.complete(handle)) {
            handle.close();
        }
    }

    private HeldLease heldLease(Grant grant) {
        return HeldLease.of(request, grant);
    }

    private void release(Grant grant) {
        try {
            runtime.calls.release(heldLease(grant));
        } catch (RuntimeException e) {
            // it frees itself when its lease runs out; the handle-less grant is nobody's
        }
    }

    /** Leaves the queue after a failed ticket and, while the wait lasts, joins it again after a back-off. */
    private void failedTicket(QueuedAcquirer.Ticket t, LockBackendException e) {
        lastFailure = e;
        if (t != null) {
            try {
                t.cancel();
            } catch (RuntimeException ignored) {
                // the entry goes with its lease
            }
        }
        long pause = Math.min(backoff.nextNanos(), deadline - runtime.clock.nanoTime());
        if (result.isDone() || pause <= 0) {
            expire();
            return;
        }
        try {
            retry = runtime.clock.schedule(() -> runtime.workers.run(this::enqueue), pause);
        } catch (RejectedExecutionException closed) {
            result.completeExceptionally(runtime.closedWhileWaiting(lock.name()));
        }
    }

    private void expire() {
        result.completeExceptionally(lock.waitEnded(wait, lastFailure));
    }

    private void stop(boolean withoutHandle) {
        runtime.held.settle(request.owner());
        if (withoutHandle && ticket == null) {
            runtime.calls.abandon(request); // an enqueue on its way may have taken the lock
        }
        Scheduled e = expiry;
        if (e != null) {
            e.cancel();
        }
        Scheduled r = retry;
        if (r != null) {
            r.cancel();
        }
        QueuedAcquirer.Ticket t = ticket;
        if (t != null && !t.granted().isDone()) {
            t.cancel();
        }
    }
}
