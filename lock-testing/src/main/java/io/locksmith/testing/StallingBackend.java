package io.locksmith.testing;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A backend decorator that a test can stall, as a connection that stops sending would: while
 * {@link #stall() stalled}, every call the core makes waits; it goes on to the backend if
 * {@link #resume()} comes within the bound, and fails with the {@link LockBackendException} an
 * unanswered call gets once the bound has passed. The backend's own traffic (a subscription, a
 * keep-alive) is untouched: for a cut of the whole network path, use a {@link TcpProxy}.
 *
 * <p>It replaces a stall seam in a backend's production code: open the client with it.
 *
 * <pre>{@code
 * StallingBackend[] stalls = new StallingBackend[1];
 * LockClient client = LockClient.open(uri, options,
 *         backend -> stalls[0] = new StallingBackend(backend, Duration.ofSeconds(2)));
 * stalls[0].stall();   // the client's calls now wait, then fail
 * stalls[0].resume();
 * }</pre>
 */
public final class StallingBackend extends ForwardingLockBackend {

    private final Duration bound;
    private volatile CountDownLatch stalled; // null while calls pass

    /**
     * @param backend the backend the calls go to
     * @param bound how long a stalled call waits before it fails: the backend's operation timeout
     */
    public StallingBackend(LockBackend backend, Duration bound) {
        super(backend);
        this.bound = Objects.requireNonNull(bound, "bound");
    }

    /** Holds back every call from now on, until {@link #resume()}. Idempotent. */
    public synchronized void stall() {
        if (stalled == null) {
            stalled = new CountDownLatch(1);
        }
    }

    /** Lets the calls held back, and every later one, go on. Idempotent. */
    public synchronized void resume() {
        CountDownLatch s = stalled;
        stalled = null;
        if (s != null) {
            s.countDown();
        }
    }

    /** @return whether calls are held back */
    public boolean stalled() {
        return stalled != null;
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        pass("lock '" + request.name() + "'");
        return super.tryAcquire(request);
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        pass("renewing " + leases.size() + " lease(s), the first of lock '"
                + leases.get(0).name() + "'");
        return super.renew(leases);
    }

    @Override
    public void abandon(AcquireRequest request) {
        pass("lock '" + request.name() + "'");
        super.abandon(request);
    }

    @Override
    public boolean release(HeldLease lease) {
        pass("lock '" + lease.name() + "'");
        return super.release(lease);
    }

    @Override
    public Optional<QueuedAcquirer> queue() {
        return super.queue().map(queue -> request -> {
            pass("lock '" + request.name() + "'");
            return queue.enqueue(request);
        });
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return super.releaseSignals().map(signals -> key -> {
            pass("subscribing to key '" + key + "'");
            return signals.subscribe(key);
        });
    }

    @Override
    public Optional<LockInspector> inspector() {
        return super.inspector().map(inspector -> key -> {
            pass("key '" + key + "'");
            return inspector.inspect(key);
        });
    }

    private void pass(String what) {
        CountDownLatch s = stalled;
        if (s == null) {
            return;
        }
        try {
            if (s.await(bound.toNanos(), TimeUnit.NANOSECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockBackendException(
                    description() + ": interrupted while the test stalled the connection, " + what, e);
        }
        throw new LockBackendException(description() + ": no answer within " + bound.toMillis() + " ms for " + what
                + " (the test stalled the connection)");
    }
}
