package io.locksmith.faults;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.memory.MemoryLockProvider;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendConfig;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One memory client's connection to its shared store, which the controller can cut: the memory
 * backend's stand-in for the network between a worker process and its server, since threads have
 * no process to stop or kill. While cut, every call fails as an unreachable server's would, so a
 * cut client can neither renew nor release and its leases run out on the store's clock.
 *
 * <p>Built over the memory provider's public SPI (lock-memory's own cut switch is package-private).
 * The memory backend has no native queue, so none is offered.
 */
final class SeverableBackend implements LockBackend {

    private final LockBackend store;
    private volatile boolean cut;

    private SeverableBackend(LockBackend store) {
        this.store = store;
    }

    /**
     * Opens a client of the shared memory store {@code group} whose connection can be cut.
     *
     * @param group   the store's name, as in {@code memory://group}
     * @param options the client's options
     * @param out     receives the client's connection, for the controller
     * @return the client
     */
    static LockClient open(String group, LockOptions options, Consumer<SeverableBackend> out) {
        return LockClient.of(events -> {
            SeverableBackend b = new SeverableBackend(new MemoryLockProvider()
                    .open(new BackendConfig("memory", "memory://" + group, Map.of(), options, events)));
            out.accept(b);
            return b;
        }, options);
    }

    /** Makes every call fail until {@link #restore()}. */
    void cut() {
        cut = true;
    }

    /** Lets calls through again. */
    void restore() {
        cut = false;
    }

    private void check(String lockName) {
        if (cut) {
            throw new LockBackendException("connection to " + store.description() + " is cut by the fault suite (lock '"
                    + lockName + "')");
        }
    }

    @Override
    public String description() {
        return store.description();
    }

    @Override
    public Duration minimumLease() {
        return store.minimumLease();
    }

    @Override
    public Duration maximumLease() {
        return store.maximumLease();
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        check(request.key());
        return store.tryAcquire(request);
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        check(leases.get(0).key());
        return store.renew(leases);
    }

    @Override
    public boolean renewsForAnyLease() {
        return store.renewsForAnyLease();
    }

    @Override
    public void abandon(AcquireRequest request) {
        check(request.key());
        store.abandon(request);
    }

    @Override
    public boolean release(HeldLease lease) {
        check(lease.key());
        return store.release(lease);
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        // not cut: a release signal still reaches a cut waiter, whose attempt then fails and backs off
        return store.releaseSignals();
    }

    @Override
    public Optional<LockInspector> inspector() {
        return store.inspector();
    }

    @Override
    public void close() {
        store.close();
    }
}
