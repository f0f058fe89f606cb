package io.locksmith.tck;

import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.Grant;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A backend that stores every key and owner the core gives it as something else before the sound
 * connection sees it: the broken providers whose mapping is not one-to-one (truncated or lossily
 * escaped keys, the client's id for an owner) share it.
 */
final class Rewritten extends ForwardingLockBackend {

    private final MemoryBackend sound;
    private final UnaryOperator<String> key;
    private final UnaryOperator<String> owner;

    Rewritten(MemoryBackend sound, UnaryOperator<String> key, UnaryOperator<String> owner) {
        super(sound);
        this.sound = sound;
        this.key = key;
        this.owner = owner;
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest r) {
        return sound.tryAcquire(rewrite(r));
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        return sound.renew(leases.stream().map(this::rewrite).toList());
    }

    @Override
    public boolean release(HeldLease lease) {
        return sound.release(rewrite(lease));
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        // the server's releases of the stored key reach the core as releases of the key it subscribed to
        return Optional.of(k -> sound.listen(key.apply(k), k));
    }

    @Override
    public void abandon(AcquireRequest r) {
        sound.abandon(rewrite(r));
    }

    private AcquireRequest rewrite(AcquireRequest r) {
        return AcquireRequest.of(key.apply(r.key()), r.name(), owner.apply(r.owner()), r.lease())
                .withHold(r.hold());
    }

    private HeldLease rewrite(HeldLease l) {
        AcquireRequest stored = AcquireRequest.of(key.apply(l.key()), l.name(), owner.apply(l.owner()), l.lease())
                .withHold(l.hold());
        return HeldLease.of(stored, new Grant(l.token(), l.attachment()));
    }
}
