package io.locksmith.memory;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Faults on the in-memory backend, for tests and the fault suite, where threads of one JVM stand
 * for processes: a client whose connection can be cut (as a network partition, or a process
 * that stopped or died, would leave it) and a group store that can be restarted or lose a key.
 *
 * <pre>{@code
 * MemoryFaults.Connection worker = MemoryFaults.connect("orders", LockOptions.defaults());
 * LockHandle held = worker.client().lock("order:1").acquire(Duration.ZERO);
 * worker.cut();       // renewals and the release now fail; the lease runs out on the store
 * worker.restore();
 * }</pre>
 */
public final class MemoryFaults {

    private MemoryFaults() {}

    /**
     * Opens a client of a {@code memory://group} store whose connection the caller controls: the
     * client is opened from the URI as any other, with its backend wrapped in the connection.
     *
     * @param group   the store's group name, as in {@code memory://group} (letters, digits, . _ -)
     * @param options the client's options
     * @return the client and its connection's controls
     * @throws io.locksmith.LockConfigurationException if the group is not a valid name
     */
    public static Connection connect(String group, LockOptions options) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(options, "options");
        AtomicReference<FaultyBackend> wrapped = new AtomicReference<>();
        LockClient client = LockClient.open("memory://" + group, options, backend -> {
            wrapped.set(new FaultyBackend(backend));
            return wrapped.get();
        });
        return new Connection(client, wrapped.get());
    }

    /**
     * Restarts a group's store as a server without persistence restarts: unreachable for
     * {@code outage}, then back with no lock held (the token counter survives). Returns when the
     * store is back.
     *
     * @param group  the store's group name
     * @param outage how long every call fails
     */
    public static void restart(String group, Duration outage) {
        MemoryStore.group(group).restart(outage);
    }

    /**
     * Removes a lock's state whoever holds it, as an operator would.
     *
     * @param group the store's group name
     * @param key   the lock's key (the client's prefix and the lock's name)
     */
    public static void removeLockState(String group, String key) {
        MemoryStore.group(group).remove(key);
    }

    /**
     * Removes a semaphore's or a read-write lock's state, every holder and waiting writer of it,
     * as an operator would.
     *
     * @param group the store's group name
     * @param key   the key (the client's prefix and the name)
     * @param kind  the family: {@link Hold.Kind#PERMIT} for a semaphore, {@link Hold.Kind#READ} or
     *     {@link Hold.Kind#WRITE} for a read-write lock, {@link Hold.Kind#EXCLUSIVE} for a lock
     */
    public static void removeLockState(String group, String key, Hold.Kind kind) {
        if (kind == Hold.Kind.EXCLUSIVE) {
            removeLockState(group, key);
        } else {
            MemoryStore.group(group).remove(kind, key);
        }
    }

    /** A client of a memory store and the controls over its connection. */
    public static final class Connection {

        private final LockClient client;
        private final FaultyBackend backend;

        private Connection(LockClient client, FaultyBackend backend) {
            this.client = client;
            this.backend = backend;
        }

        /** @return the client; close it as any other */
        public LockClient client() {
            return client;
        }

        /** Makes every call of this client fail, as if its connection were cut, until {@link #restore()}. */
        public void cut() {
            backend.sever();
        }

        /** Lets calls through again. */
        public void restore() {
            backend.restore();
        }

        /**
         * Makes every call return {@code delay} after the store acted; {@link Duration#ZERO} ends it.
         *
         * @param delay how long each answer waits
         */
        public void delayReplies(Duration delay) {
            if (delay.isNegative()) {
                throw new IllegalArgumentException("delay must not be negative, was " + delay);
            }
            backend.delayReplies(delay);
        }
    }

    /**
     * A connection that can be cut, which makes every call fail as a network partition would, and
     * whose replies can be delayed, as a slow path back would: the store has acted, the caller
     * learns it late. Release signals still arrive while it is cut, as before.
     */
    private static final class FaultyBackend extends ForwardingLockBackend {

        private volatile boolean severed;
        private volatile long replyDelayNanos;

        FaultyBackend(LockBackend store) {
            super(store);
        }

        void sever() {
            severed = true;
        }

        void restore() {
            severed = false;
        }

        void delayReplies(Duration delay) {
            replyDelayNanos = delay.toNanos();
        }

        @Override
        public AcquireResult tryAcquire(AcquireRequest request) {
            reachable(request.name());
            return reply(super.tryAcquire(request));
        }

        @Override
        public void abandon(AcquireRequest request) {
            reachable(request.name());
            super.abandon(request);
            reply(null);
        }

        @Override
        public List<RenewOutcome> renew(List<HeldLease> leases) {
            reachable(leases.get(0).name());
            return reply(super.renew(leases));
        }

        @Override
        public boolean release(HeldLease lease) {
            reachable(lease.name());
            return reply(super.release(lease));
        }

        @Override
        public Optional<LockInspector> inspector() {
            return super.inspector().map(inspector -> new LockInspector() {
                @Override
                public Optional<HolderState> inspect(String key) {
                    reachable(key);
                    return reply(inspector.inspect(key));
                }

                @Override
                public Optional<List<Holder>> holders(String key, Hold.Kind kind) {
                    reachable(key);
                    return reply(inspector.holders(key, kind));
                }
            });
        }

        private void reachable(String lockName) {
            if (severed) {
                throw new LockBackendException("connection to " + description() + " is cut (lock '" + lockName + "')");
            }
        }

        /**
         * Hands back the store's answer once the reply delay, if any, has passed: real time, as a
         * slow network takes it, whatever clock the client runs on.
         */
        private <T> T reply(T answer) {
            long delay = replyDelayNanos;
            if (delay > 0) {
                long due = System.nanoTime() + delay;
                for (long left; (left = due - System.nanoTime()) > 0; ) {
                    LockSupport.parkNanos(
                            left); // the delay is the point; an interrupt does not shorten a reply's way back
                }
            }
            return answer;
        }
    }
}
