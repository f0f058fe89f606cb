package io.locksmith.memory;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import java.time.Duration;
import java.util.Objects;

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

    private MemoryFaults() {
    }

    /**
     * Opens a client of a {@code memory://group} store whose connection the caller controls.
     *
     * @param group   the store's group name, as in {@code memory://group}
     * @param options the client's options
     * @return the client and its connection's controls
     */
    public static Connection connect(String group, LockOptions options) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(options, "options");
        MemoryBackend backend = new MemoryBackend(MemoryStore.group(group), "memory://" + group);
        return new Connection(LockClient.of(events -> backend, options), backend);
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

    /** A client of a memory store and the controls over its connection. */
    public static final class Connection {

        private final LockClient client;
        private final MemoryBackend backend;

        private Connection(LockClient client, MemoryBackend backend) {
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
}
