package io.locksmith.etcd;

import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One etcd lease of a client, shared by every key of that lease length, kept alive by jetcd's
 * keep-alive stream. The stream's end or failure (the lease expired, or the cluster could not be
 * reached past its TTL) marks the lease dead once, and every key on it lost.
 */
final class EtcdLease implements StreamObserver<LeaseKeepAliveResponse> {

    final long id;
    final long ttlSeconds;
    private final Consumer<EtcdLease> onDeath;
    private final AtomicBoolean dead = new AtomicBoolean();
    private volatile boolean closing;
    private volatile CloseableClient keepAlive;

    EtcdLease(long id, long ttlSeconds, Consumer<EtcdLease> onDeath) {
        this.id = id;
        this.ttlSeconds = ttlSeconds;
        this.onDeath = onDeath;
    }

    void keptAliveBy(CloseableClient keepAlive) {
        this.keepAlive = keepAlive;
    }

    boolean alive() {
        return !dead.get();
    }

    @Override
    public void onNext(LeaseKeepAliveResponse response) {
        if (response.getTTL() <= 0) {
            die();
        }
    }

    @Override
    public void onError(Throwable t) {
        die();
    }

    // jetcd completes the stream when the lease's deadline passed without an answer
    @Override
    public void onCompleted() {
        die();
    }

    /** Marks the lease dead (once) and stops keeping it alive. */
    void die() {
        if (dead.compareAndSet(false, true)) {
            stop();
            if (!closing) {
                onDeath.accept(this);
            }
        }
    }

    /** Stops keeping the lease alive without reporting a loss: the client is closing. */
    void close() {
        closing = true;
        dead.set(true);
        stop();
    }

    private void stop() {
        CloseableClient k = keepAlive;
        if (k != null) {
            k.close();
        }
    }

    @Override
    public String toString() {
        return "EtcdLease[" + Long.toHexString(id) + ", ttl=" + ttlSeconds + "s]";
    }
}
