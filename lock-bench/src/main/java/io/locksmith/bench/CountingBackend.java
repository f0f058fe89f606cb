package io.locksmith.bench;

import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/** A backend that counts the core's renewal calls on their way to the real one. */
final class CountingBackend implements LockBackend {

    private final LockBackend backend;
    final AtomicLong renewCalls = new AtomicLong();
    final AtomicLong renewedLeases = new AtomicLong();

    CountingBackend(LockBackend backend) {
        this.backend = backend;
    }

    @Override
    public String description() {
        return backend.description();
    }

    @Override
    public Duration minimumLease() {
        return backend.minimumLease();
    }

    @Override
    public Duration maximumLease() {
        return backend.maximumLease();
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        return backend.tryAcquire(request);
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        renewCalls.incrementAndGet();
        renewedLeases.addAndGet(leases.size());
        return backend.renew(leases);
    }

    @Override
    public boolean release(HeldLease lease) {
        return backend.release(lease);
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return backend.releaseSignals();
    }

    @Override
    public Optional<QueuedAcquirer> queue() {
        return backend.queue();
    }

    @Override
    public Optional<LockInspector> inspector() {
        return backend.inspector();
    }

    @Override
    public void close() {
        backend.close();
    }
}
