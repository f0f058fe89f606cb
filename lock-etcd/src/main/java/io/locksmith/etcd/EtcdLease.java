package io.locksmith.etcd;

import io.locksmith.spi.BackendScheduler;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One etcd lease of a client, shared by every key of that lease length, and what the client knows
 * of it on the server.
 *
 * <p>The server's deadline for the lease is never earlier than the send time of the last request
 * that refreshed it (its grant or a keep-alive the server answered) plus the TTL: the server
 * restarts the TTL when the request arrives, after it was sent. That send time is kept here, on
 * the client's ticker, so that a grant made while the key queued can count its deadline from
 * it ({@link io.locksmith.spi.Grant#confirmedAt(long)}). A keep-alive that fails (a member
 * restarting, a connection reset) does not end the lease; only the server saying it no longer
 * knows the lease does ({@link #end()}).
 */
final class EtcdLease {

    final long id;
    final long ttlSeconds;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicBoolean keepAliveInFlight = new AtomicBoolean();
    private final AtomicLong confirmedAtNanos;
    private volatile BackendScheduler.Scheduled keepAlive;

    EtcdLease(long id, long ttlSeconds, long grantSentAtNanos) {
        this.id = id;
        this.ttlSeconds = ttlSeconds;
        this.confirmedAtNanos = new AtomicLong(grantSentAtNanos);
    }

    boolean alive() {
        return !ended.get();
    }

    /** @return the client's ticker reading at which the last request the server answered for this lease was sent */
    long confirmedAt() {
        return confirmedAtNanos.get();
    }

    /** Records a keep-alive the server answered with a live TTL; an older one that answers late changes nothing. */
    void confirmed(long sentAtNanos) {
        confirmedAtNanos.accumulateAndGet(sentAtNanos, (a, b) -> b - a > 0 ? b : a);
    }

    void keptAliveBy(BackendScheduler.Scheduled task) {
        this.keepAlive = task;
    }

    /** @return whether the caller may send a keep-alive: one at a time, however long the cluster is away */
    boolean startKeepAlive() {
        return alive() && keepAliveInFlight.compareAndSet(false, true);
    }

    void keepAliveDone() {
        keepAliveInFlight.set(false);
    }

    /**
     * Marks the lease ended and stops keeping it alive.
     *
     * @return whether this call ended it (only the first does)
     */
    boolean end() {
        if (!ended.compareAndSet(false, true)) {
            return false;
        }
        BackendScheduler.Scheduled task = keepAlive;
        if (task != null) {
            task.cancel();
        }
        return true;
    }

    @Override
    public String toString() {
        return "EtcdLease[" + Long.toHexString(id) + ", ttl=" + ttlSeconds + "s]";
    }
}
