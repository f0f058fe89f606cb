package io.locksmith.tck;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import io.locksmith.spi.Ticker;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * One client's sound connection to a {@link MemoryServer}: every primitive is the server's atomic
 * step, and a release wakes waiters. {@link #cut} makes every call fail as an unreachable server
 * would, until {@link #restore}; {@link #delayReplies} holds each answer back after the server acted.
 */
final class MemoryBackend implements LockBackend {

    /** The shortest lease it keeps: longer than 1 ms, so that the kit's too-short lease exists. */
    static final Duration MINIMUM_LEASE = Duration.ofMillis(100);

    private final MemoryServer server;
    private final String description;
    private final BackendContext context;
    private volatile boolean cut;
    private volatile long replyDelayNanos;
    private volatile MemoryServer.Quirk quirk = MemoryServer.Quirk.NONE;

    MemoryBackend(MemoryServer server, String description, BackendContext context) {
        this.server = server;
        this.description = description;
        this.context = context;
    }

    MemoryServer server() {
        return server;
    }

    /** @return the URI the client was opened from, credentials and all: for the flaws that show it */
    String location() {
        return context.location();
    }

    /** @return the client's clock, for the confirmation time of a grant */
    Ticker ticker() {
        return context.ticker();
    }

    /** Makes the semaphores' and read-write locks' steps go wrong in one way: for the broken providers. */
    MemoryBackend quirk(MemoryServer.Quirk quirk) {
        this.quirk = quirk;
        return this;
    }

    void cut() {
        cut = true;
    }

    void restore() {
        cut = false;
    }

    void delayReplies(Duration delay) {
        replyDelayNanos = delay.toNanos();
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Duration minimumLease() {
        return MINIMUM_LEASE;
    }

    /** Every kind: locks in the server's entries, semaphores and read-write locks in maps of their own. */
    @Override
    public Set<Hold.Kind> holds() {
        return EnumSet.allOf(Hold.Kind.class);
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        reachable(request.name());
        if (request.hold().kind() != Hold.Kind.EXCLUSIVE) {
            return replied(server.acquireShared(request, description, quirk));
        }
        if ((quirk == MemoryServer.Quirk.FAMILIES_SHARE_ONE_NAMESPACE
                        || quirk == MemoryServer.Quirk.KEYS_SUFFIXED_UNESCAPED)
                && server.heldByAnyFamily(request.key())) {
            return replied(Held.UNKNOWN);
        }
        return replied(server.acquire(request));
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        reachable(leases.get(0).name());
        return replied(leases.stream()
                .map(l -> l.hold().kind() == Hold.Kind.EXCLUSIVE ? server.renew(l) : server.renewShared(l, quirk))
                .toList());
    }

    @Override
    public boolean release(HeldLease lease) {
        reachable(lease.name());
        if (lease.hold().kind() != Hold.Kind.EXCLUSIVE) {
            return replied(server.releaseShared(lease.key(), lease.hold().kind(), lease.owner(), quirk));
        }
        return replied(server.release(lease));
    }

    @Override
    public void abandon(AcquireRequest request) {
        reachable(request.name());
        if (request.hold().kind() != Hold.Kind.EXCLUSIVE) {
            server.abandonShared(request, quirk);
            replied(null);
            return;
        }
        // release compares the owner only: an unanswered attempt's grant is removed, no one else's
        replied(server.release(HeldLease.of(request, Grant.of(0))));
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return Optional.of(key -> listen(key, key));
    }

    /**
     * Reports every release of {@code serverKey} on the server to the client's one callback as a
     * release of {@code key}: the same key, unless a broken provider stored it as another.
     */
    ReleaseSignals.Subscription listen(String serverKey, String key) {
        return server.listen(serverKey, () -> context.events().released(key))::run;
    }

    /** Reads the key's live holder (or a shared key's holders) and the remaining leases by the server's clock. */
    @Override
    public Optional<LockInspector> inspector() {
        return Optional.of(new LockInspector() {
            @Override
            public Optional<HolderState> inspect(String key) {
                reachable(key);
                MemoryServer.Entry e = server.holder(key);
                return replied(
                        e == null
                                ? Optional.<LockInspector.HolderState>empty()
                                : Optional.of(new LockInspector.HolderState(
                                        e.owner(),
                                        e.token(),
                                        Duration.ofNanos(Math.max(0, e.expiresAt() - System.nanoTime())))));
            }

            @Override
            public Optional<List<Holder>> holders(String key, Hold.Kind kind) {
                reachable(key);
                return replied(Optional.of(server.sharedHolders(key, kind)));
            }
        });
    }

    /** Fails as a call to an unreachable server does; the broken providers use it too. */
    void reachable(String lock) {
        if (cut) {
            throw new LockBackendException(description + ": connection cut while working on lock '" + lock + "'");
        }
    }

    /** The way back from the server: where {@link #delayReplies} makes time pass, as a slow network does. */
    <T> T replied(T answer) {
        long until = System.nanoTime() + replyDelayNanos;
        for (long left = replyDelayNanos;
                left > 0 && !Thread.currentThread().isInterrupted();
                left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        return answer;
    }

    @Override
    public void close() {}
}
