package io.locksmith.spi;

import io.locksmith.LossReason;

/**
 * Where a backend reports what it learns without being asked: a watch saw a holder's key
 * deleted, a session or lease expired, a release signal arrived. Safe to call from any thread, including the client
 * library's I/O threads; the core hands the work to its own threads.
 */
public interface BackendEvents {

    /**
     * Reports that one grant is no longer held.
     *
     * @param key the backend key the grant was made for ({@link AcquireRequest#key()})
     * @param owner the owner the grant was made to ({@link AcquireRequest#owner()})
     * @param reason why
     */
    void lost(String key, String owner, LossReason reason);

    /**
     * Reports that every grant this backend holds is lost at once (its session ended).
     *
     * @param reason why
     */
    void allLost(LossReason reason);

    /**
     * Reports that a key may have become free (a release signal arrived), for the waiters that
     * subscribed to it through {@link ReleaseSignals#subscribe(String)}. Cheap; the core fans it
     * out to its waiters.
     *
     * @param key the backend key
     */
    void released(String key);

    /**
     * Reports that a key was released and that the backend's queue of waiters gives it next to
     * one owner ({@link AcquireRequest#owner()} of a request that {@linkplain AcquireRequest#waits()
     * waits}). The core wakes that owner's wait if it is one of this client's, and none of its
     * other waiters, whose attempts would only be refused. The default reports
     * {@link #released(String)}.
     *
     * @param key the backend key
     * @param next the owner the key goes to next
     */
    default void released(String key, String next) {
        released(key);
    }
}
