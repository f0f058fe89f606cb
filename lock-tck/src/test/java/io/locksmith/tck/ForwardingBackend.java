package io.locksmith.tck;

import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A backend that hands every call to a sound one; each broken provider in {@link Flaw} overrides
 * the one or two calls it gets wrong and keeps the rest sound, so that a rule failing on it fails
 * for that flaw alone.
 */
class ForwardingBackend implements LockBackend {

    /** The sound connection the calls go to. */
    protected final MemoryBackend sound;

    ForwardingBackend(MemoryBackend sound) {
        this.sound = sound;
    }

    @Override
    public String description() {
        return sound.description();
    }

    @Override
    public Duration minimumLease() {
        return sound.minimumLease();
    }

    @Override
    public Duration maximumLease() {
        return sound.maximumLease();
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        return sound.tryAcquire(request);
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        return sound.renew(leases);
    }

    @Override
    public boolean release(HeldLease lease) {
        return sound.release(lease);
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return sound.releaseSignals();
    }

    @Override
    public Optional<LockInspector> inspector() {
        return sound.inspector();
    }

    @Override
    public void close() {
        sound.close();
    }
}
