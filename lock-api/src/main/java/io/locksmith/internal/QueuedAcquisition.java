package io.locksmith.internal;

import io.locksmith.LockBackendException;
import io.locksmith.LockHandle;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Grant;
import io.locksmith.spi.QueuedAcquirer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Waits for a lock in the backend's own queue. The deadline, cancellation and a grant that races
 * them are handled here: the ticket is cancelled, and a grant made anyway is released.
 */
final class QueuedAcquisition {

    private final DefaultDistributedLock lock;
    private final AcquireRequest request;
    private final Duration wait;
    private final long waitNanos;
    private final CompletableFuture<LockHandle> result = new CompletableFuture<>();
    private volatile QueuedAcquirer.Ticket ticket;
    private volatile ScheduledFuture<?> expiry;

    QueuedAcquisition(DefaultDistributedLock lock, AcquireRequest request, long waitNanos, Duration wait) {
        this.lock = lock;
        this.request = request;
        this.wait = wait;
        this.waitNanos = waitNanos;
    }

    CompletableFuture<LockHandle> start() {
        expiry = lock.client().timer().schedule(
                () -> result.completeExceptionally(lock.timeout(wait)), waitNanos, TimeUnit.NANOSECONDS);
        result.whenComplete((handle, failure) -> stop());
        try {
            lock.client().workers().execute(this::enqueue);
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new IllegalStateException(
                    "lock client for " + lock.client().backend() + " was closed while waiting for '" + lock.name() + "'"));
        }
        return result;
    }

    private void enqueue() {
        if (result.isDone()) {
            return;
        }
        QueuedAcquirer.Ticket t;
        try {
            t = lock.client().backendImpl().queue().orElseThrow().enqueue(request);
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return;
        }
        ticket = t;
        t.granted().whenComplete(this::granted);
        if (result.isDone()) {
            t.cancel();
        }
    }

    // A queued grant's lease is the backend's session or lease, kept alive while the waiter queued,
    // so the local deadline counts from the moment the grant arrives.
    private void granted(Grant grant, Throwable failure) {
        long start = System.nanoTime();
        if (failure != null) {
            result.completeExceptionally(failure instanceof LockBackendException ? failure
                    : new LockBackendException("waiting for lock '" + lock.name() + "' failed on "
                            + lock.client().backend(), failure));
            return;
        }
        try {
            lock.client().workers().execute(() -> {
                DefaultLockHandle handle = lock.adopt(request, grant, start);
                if (!result.complete(handle)) {
                    handle.close();
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new IllegalStateException("lock client closed"));
        }
    }

    private void stop() {
        ScheduledFuture<?> e = expiry;
        if (e != null) {
            e.cancel(false);
        }
        QueuedAcquirer.Ticket t = ticket;
        if (t != null && !t.granted().isDone()) {
            t.cancel();
        }
    }
}
