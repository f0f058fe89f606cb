package io.locksmith.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * A grant the core holds, as handed back to the backend for renewal, release and loss. The core
 * makes these; a backend reads them.
 */
public final class HeldLease {

    private final AcquireRequest request;
    private final long token;
    private final Duration lease;
    private final Object attachment;

    private HeldLease(AcquireRequest request, long token, Duration lease, Object attachment) {
        this.request = Objects.requireNonNull(request, "request");
        this.token = token;
        this.lease = Objects.requireNonNull(lease, "lease");
        this.attachment = attachment;
    }

    /**
     * @param request the acquisition the grant answered
     * @param grant the backend's grant
     * @return the held lease, for the request's lease
     */
    public static HeldLease of(AcquireRequest request, Grant grant) {
        return new HeldLease(request, grant.token(), request.lease(), grant.attachment());
    }

    /**
     * @param lease the lease to renew for
     * @return this lease with another length
     */
    public HeldLease withLease(Duration lease) {
        return lease.equals(this.lease) ? this : new HeldLease(request, token, lease, attachment);
    }

    /** @return the backend key of the acquisition */
    public String key() {
        return request.key();
    }

    /** @return the lock's name, for messages */
    public String name() {
        return request.name();
    }

    /** @return the owner of the acquisition */
    public String owner() {
        return request.owner();
    }

    /** @return the kind of hold granted */
    public Hold hold() {
        return request.hold();
    }

    /** @return the grant's fencing token */
    public long token() {
        return token;
    }

    /** @return the lease to renew for */
    public Duration lease() {
        return lease;
    }

    /** @return what the backend put in the {@link Grant}, or {@code null} */
    public Object attachment() {
        return attachment;
    }

    /**
     * @param type the type the backend attached
     * @param <T> the type
     * @return the attachment as that type
     * @throws IllegalStateException if the grant has no attachment of that type (a backend bug:
     *     the message names the lock and both types)
     */
    public <T> T attachment(Class<T> type) {
        if (!type.isInstance(attachment)) {
            throw new IllegalStateException("the grant of lock '" + name() + "' carries "
                    + (attachment == null
                            ? "no attachment"
                            : "a " + attachment.getClass().getName())
                    + ", not a " + type.getName());
        }
        return type.cast(attachment);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HeldLease h
                && h.request.equals(request)
                && h.token == token
                && h.lease.equals(lease)
                && Objects.equals(h.attachment, attachment);
    }

    @Override
    public int hashCode() {
        return Objects.hash(request, token, lease);
    }

    @Override
    public String toString() {
        return "HeldLease[" + name() + ", owner=" + owner() + ", token=" + token + ", lease=" + Durations.format(lease)
                + "]";
    }
}
