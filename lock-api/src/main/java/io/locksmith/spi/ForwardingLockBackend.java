package io.locksmith.spi;

import io.locksmith.LossReason;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link LockBackend} that hands every call to another: the base for decorators that count,
 * delay, stall or fail calls (tests, benchmarks, instrumentation). Open a client over a decorated
 * backend with {@link io.locksmith.LockClient#open(String, io.locksmith.LockOptions,
 * java.util.function.UnaryOperator)}; override only the calls to change.
 */
public abstract class ForwardingLockBackend implements LockBackend {

    private final LockBackend delegate;

    /** @param delegate the backend every call goes to */
    protected ForwardingLockBackend(LockBackend delegate) {
        this.delegate = java.util.Objects.requireNonNull(delegate, "delegate");
    }

    /** @return the backend every call goes to */
    protected LockBackend delegate() {
        return delegate;
    }

    @Override
    public String description() {
        return delegate.description();
    }

    @Override
    public Duration minimumLease() {
        return delegate.minimumLease();
    }

    @Override
    public Duration maximumLease() {
        return delegate.maximumLease();
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        return delegate.tryAcquire(request);
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        return delegate.renew(leases);
    }

    @Override
    public boolean renewsForAnyLease() {
        return delegate.renewsForAnyLease();
    }

    @Override
    public int renewalBatchLimit() {
        return delegate.renewalBatchLimit();
    }

    @Override
    public void abandon(AcquireRequest request) {
        delegate.abandon(request);
    }

    @Override
    public boolean release(HeldLease lease) {
        return delegate.release(lease);
    }

    @Override
    public void lost(HeldLease lease, LossReason reason) {
        delegate.lost(lease, reason);
    }

    @Override
    public Set<Hold.Kind> holds() {
        return delegate.holds();
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return delegate.releaseSignals();
    }

    @Override
    public Optional<QueuedAcquirer> queue() {
        return delegate.queue();
    }

    @Override
    public Optional<LockInspector> inspector() {
        return delegate.inspector();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate.description() + "]";
    }
}
