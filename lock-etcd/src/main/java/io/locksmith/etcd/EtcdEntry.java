package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;

/**
 * One acquisition's own key, waiting or granted: the {@link io.locksmith.spi.Grant}'s attachment,
 * handed back by the core on renewal and release.
 */
final class EtcdEntry {

    final String lockKey;
    final String name;
    final String owner;
    final ByteSequence ownKey;
    final long leaseMillis;
    /** The own key's create revision: its place in the queue, and the fencing token once granted. */
    volatile long revision;
    /** The etcd lease the key is attached to; changes only when {@code extend} asks for a longer lease. */
    volatile EtcdLease lease;
    /**
     * Until when (local monotonic clock) the grant may stay: its last confirmed acquisition or
     * renewal plus its lease. The lease is kept alive for the waiters too, so a grant that is no
     * longer renewed is deleted by the client itself when this passes.
     */
    volatile long keepUntilNanos;

    EtcdEntry(String lockKey, String name, String owner, ByteSequence ownKey, long leaseMillis, EtcdLease lease) {
        this.lockKey = lockKey;
        this.name = name;
        this.owner = owner;
        this.ownKey = ownKey;
        this.leaseMillis = leaseMillis;
        this.lease = lease;
    }

    void keepFrom(long sentAtNanos, long millis) {
        keepUntilNanos = sentAtNanos + millis * 1_000_000L;
    }

    @Override
    public String toString() {
        return "EtcdEntry[" + name + ", revision=" + revision + "]";
    }
}
