package io.locksmith.spi;

/**
 * A backend's native signal that a key may have become free (Redis pub/sub, PostgreSQL
 * LISTEN/NOTIFY). The core subscribes once per key however many of its waiters wait for it, and
 * the backend delivers every signal to the one core callback, {@link BackendEvents#released(String)};
 * the core fans it out. Waiters still back off and retry on their own, so a lost signal costs
 * latency, never correctness.
 */
public interface ReleaseSignals {

    /**
     * Starts listening for releases of a key; each signal is reported through
     * {@link BackendEvents#released(String)}. May wait for the server's confirmation, within the
     * backend's operation timeout.
     *
     * @param key the backend key
     * @return the subscription; closing it stops the signals for the key
     * @throws io.locksmith.LockBackendException if the server refused (a Redis ACL user without
     *     channel rights): the key's waiters back off instead
     */
    Subscription subscribe(String key);

    /** An active subscription. */
    interface Subscription extends AutoCloseable {
        /** Stops the signals. Idempotent. */
        @Override
        void close();
    }
}
