package io.locksmith.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * One acquisition the core asks a backend for. Made with {@link #of} and the {@code with}
 * methods, so that a later version can add a component without breaking a backend.
 */
public final class AcquireRequest {

    private final String key;
    private final String name;
    private final String owner;
    private final Duration lease;
    private final Hold hold;
    private final boolean waits;

    private AcquireRequest(String key, String name, String owner, Duration lease, Hold hold, boolean waits) {
        this.key = Objects.requireNonNull(key, "key");
        this.name = Objects.requireNonNull(name, "name");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.lease = Objects.requireNonNull(lease, "lease");
        this.hold = Objects.requireNonNull(hold, "hold");
        this.waits = waits;
    }

    /**
     * An exclusive acquisition.
     *
     * @param key the backend key: the client's prefix and the lock's name ({@code prefix:name}, or
     *     the name alone without a prefix); at most 1,281 characters, any Unicode; a backend that
     *     cannot store it as is must map it injectively (escape, or hash and keep the original)
     * @param name the lock's name as the user gave it, for messages
     * @param owner a string unique to this acquisition across all clients; the backend stores it
     *     and compares it on renewal and release
     * @param lease how long the grant lasts without renewal, kept by the backend's clock
     * @return the request
     */
    public static AcquireRequest of(String key, String name, String owner, Duration lease) {
        return new AcquireRequest(key, name, owner, lease, Hold.EXCLUSIVE, false);
    }

    /**
     * @param hold the kind of hold
     * @return this request for that kind of hold
     */
    public AcquireRequest withHold(Hold hold) {
        return new AcquireRequest(key, name, owner, lease, hold, waits);
    }

    /**
     * @param owner another owner
     * @return this request for that owner
     */
    public AcquireRequest withOwner(String owner) {
        return new AcquireRequest(key, name, owner, lease, hold, waits);
    }

    /**
     * @param lease another lease
     * @return this request for that lease
     */
    public AcquireRequest withLease(Duration lease) {
        return new AcquireRequest(key, name, owner, lease, hold, waits);
    }

    /**
     * @return this request as one that waits: the caller retries it until it is granted or the
     *     wait ends, and when the wait ends without a grant the core calls
     *     {@link LockBackend#abandon}
     */
    public AcquireRequest waiting() {
        return new AcquireRequest(key, name, owner, lease, hold, true);
    }

    /**
     * Whether the caller waits if the key is held. A backend that keeps its waiters in order (a
     * fair queue) enqueues only such a request; a one-shot attempt that finds the key held leaves
     * nothing behind.
     *
     * @return {@code true} for a request made by {@link #waiting()}
     */
    public boolean waits() {
        return waits;
    }

    /** @return the backend key */
    public String key() {
        return key;
    }

    /** @return the lock's name, for messages */
    public String name() {
        return name;
    }

    /** @return the acquisition's owner, unique across all clients */
    public String owner() {
        return owner;
    }

    /** @return how long the grant lasts without renewal */
    public Duration lease() {
        return lease;
    }

    /** @return the kind of hold asked for; {@link Hold#EXCLUSIVE} unless said otherwise */
    public Hold hold() {
        return hold;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AcquireRequest r
                && r.key.equals(key)
                && r.name.equals(name)
                && r.owner.equals(owner)
                && r.lease.equals(lease)
                && r.hold.equals(hold)
                && r.waits == waits;
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, owner, lease, hold);
    }

    @Override
    public String toString() {
        return "AcquireRequest[" + name + ", owner=" + owner + ", lease=" + Durations.format(lease) + ", " + hold
                + (waits ? ", waits" : "") + "]";
    }
}
