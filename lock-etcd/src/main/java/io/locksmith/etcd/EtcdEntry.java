package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.locksmith.spi.Hold;

/**
 * One acquisition's own key in etcd, waiting or granted: the {@link io.locksmith.spi.Grant}'s
 * attachment, handed back by the core on renewal, release and loss. The core keeps the table of
 * held leases and their deadlines; this is only what etcd needs to find and guard the key.
 */
final class EtcdEntry {

    final ByteSequence ownKey;
    /**
     * The own key's create revision: its place in the queue, the fencing token once granted, and
     * the guard of every delete (a key put again by the same owner has another).
     */
    final long revision;
    /** The etcd lease the key is attached to; changes only when {@code extend} asks for a longer lease. */
    volatile EtcdLease lease;
    /** The kind of hold the key stands for: what a move to a longer lease writes back into it. */
    final Hold hold;

    EtcdEntry(ByteSequence ownKey, long revision, EtcdLease lease) {
        this(ownKey, revision, lease, Hold.EXCLUSIVE);
    }

    EtcdEntry(ByteSequence ownKey, long revision, EtcdLease lease, Hold hold) {
        this.ownKey = ownKey;
        this.revision = revision;
        this.lease = lease;
        this.hold = hold;
    }

    /**
     * @param deletedAt the revision of a deletion of the own key
     * @return whether that deletion removed this entry, not an earlier key of the same name
     */
    boolean deletedBy(long deletedAt) {
        return deletedAt > revision;
    }

    @Override
    public String toString() {
        return "EtcdEntry[revision=" + revision + ", " + lease + "]";
    }
}
