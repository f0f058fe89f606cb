package io.locksmith.spi;

/**
 * A backend's native signal that a key may have become free (Redis pub/sub, PostgreSQL
 * LISTEN/NOTIFY). Waiters retry when it fires; the core still backs off and retries on its own,
 * so a lost signal costs latency, never correctness.
 */
public interface ReleaseSignals {

    /**
     * Starts listening for releases of a key.
     *
     * @param key the backend key
     * @param onRelease run when the key may have become free; must be cheap, may run on an I/O thread
     * @return the subscription; closing it stops the callbacks
     */
    Subscription subscribe(String key, Runnable onRelease);

    /** An active subscription. */
    interface Subscription extends AutoCloseable {
        /** Stops the callbacks. Idempotent. */
        @Override
        void close();
    }
}
