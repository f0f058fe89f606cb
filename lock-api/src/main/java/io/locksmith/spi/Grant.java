package io.locksmith.spi;

import java.util.OptionalLong;

/**
 * A backend's answer to a successful acquisition.
 *
 * <p>The core counts the grant's local deadline from the moment the server last confirmed its
 * lease. For {@link LockBackend#tryAcquire} that is when the attempt was sent, which the core
 * knows. A queued grant ({@link QueuedAcquirer}) rests on a lease the backend kept alive while
 * the waiter queued (an etcd lease, a ZooKeeper session), last confirmed by a request the core
 * never saw: the backend says when that request was sent with {@link #confirmedAt(long)}, or the
 * core renews the grant once before handing it out.
 *
 * @param token the fencing token: strictly greater than every earlier grant's token for the key
 * @param attachment backend state the core hands back on renewal and release (a node path, a
 *     revision), or {@code null}
 * @param confirmedAtNanos the client's {@link BackendContext#ticker()} reading at which the request that last confirmed
 *     the grant's lease on the server was sent, or {@code null} if that is the acquisition call
 */
public record Grant(long token, Object attachment, Long confirmedAtNanos) implements AcquireResult {

    /**
     * A grant whose lease was confirmed by the acquisition call itself.
     *
     * @param token the fencing token
     * @param attachment backend state for renewal and release, or {@code null}
     */
    public Grant(long token, Object attachment) {
        this(token, attachment, null);
    }

    /**
     * @param token the fencing token
     * @return a grant without attachment
     */
    public static Grant of(long token) {
        return new Grant(token, null);
    }

    /**
     * @param sentAtNanos the client's {@link BackendContext#ticker()} reading at which the request that last confirmed
     *     the lease was sent (a keep-alive, a session heartbeat, the queue entry's own write)
     * @return this grant with that confirmation time
     */
    public Grant confirmedAt(long sentAtNanos) {
        return new Grant(token, attachment, sentAtNanos);
    }

    /** @return when the request that last confirmed the lease was sent, if the backend said */
    public OptionalLong confirmedAt() {
        return confirmedAtNanos == null ? OptionalLong.empty() : OptionalLong.of(confirmedAtNanos);
    }
}
