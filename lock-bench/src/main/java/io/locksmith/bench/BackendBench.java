package io.locksmith.bench;

import io.locksmith.LockClient;

/** One backend as the harness measures it: its lock clients, its floor and its round trip. */
interface BackendBench extends AutoCloseable {

    /** @return the backend's name in the tables */
    String name();

    /** @return the server's version, for the record */
    String version();

    /** @return a new lock client on the backend */
    LockClient client();

    /**
     * @return the floor: one acquire-like and one release-like call with the backend's own client
     *     library, on its own connection, done by {@link Floor#pair(String)}
     */
    Floor floor();

    /**
     * @return a new connection of the backend's own client library for one process of the
     *     contended floor, with an owner value of its own; the caller closes it
     */
    FloorConnection floorConnection();

    /**
     * @return a new lock client standing for one process in the contended scenario: on a
     *     connection of its own, not shared with another client's
     */
    default LockClient processClient() {
        return client();
    }

    /**
     * @return the backend's URI for the held-at-scale scenario, which opens its own instrumented
     *     client through the provider; null to leave the scenario out
     */
    default String uri() {
        return null;
    }

    /**
     * @return the URI each participant of the leader-failover scenario opens its client from (with
     *     {@link #failoverLease()} and a decorator that crashes it); null to leave the scenario out
     */
    default String failoverUri() {
        return uri();
    }

    /** @return the leadership's lease in the leader-failover scenario, within the backend's lease bounds */
    default java.time.Duration failoverLease() {
        return java.time.Duration.ofSeconds(2);
    }

    /** @return one round trip to the server (a ping) on the floor's connection, or null if none */
    Runnable roundTrip();

    /** The least the backend's own client can do for one lock pair. */
    interface Floor extends AutoCloseable {
        /**
         * Takes and frees a key once.
         *
         * @param key the key
         */
        void pair(String key);

        @Override
        void close();
    }

    /**
     * One connection of the contended floor: an attempt that does not wait, and a release, each
     * the least the backend's own client can do for it.
     */
    interface FloorConnection extends AutoCloseable {
        /**
         * One attempt at the key.
         *
         * @param key the key
         * @return whether this connection now holds the key
         */
        boolean tryAcquire(String key);

        /**
         * Frees the key this connection holds.
         *
         * @param key the key
         */
        void release(String key);

        @Override
        void close();
    }

    @Override
    void close();
}
