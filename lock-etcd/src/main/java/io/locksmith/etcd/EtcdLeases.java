package io.locksmith.etcd;

import io.etcd.jetcd.Lease;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.locksmith.spi.BackendScheduler;
import io.locksmith.spi.Ticker;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's etcd leases: one per distinct TTL, granted on first use and kept alive until the
 * server says it ended or the client closes. Acquisitions never grant a lease of their own.
 *
 * <p>The client sends the keep-alives itself, whenever the lease was last confirmed a third of its
 * TTL ago or more (the renewal tick's keep-alive confirms it too, so while locks are held and
 * renewed this sends nothing more), rather than through
 * jetcd's keep-alive stream: jetcd reports every error of that stream (a member restart, a TCP
 * reset) to its observers as if the lease were gone, and does not say when the request it answers
 * was sent. A keep-alive that fails is retried at the next period; whether the locks survive is
 * decided by their deadlines and the core's renewal, never by one failed call.
 */
final class EtcdLeases implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EtcdLeases.class);

    private final Lease client;
    private final EtcdCalls calls;
    private final BackendScheduler scheduler;
    private final Ticker ticker;
    private final Consumer<EtcdLease> onEnd;
    private final Map<Long, EtcdLease> byTtl = new ConcurrentHashMap<>();
    private volatile boolean closed;

    EtcdLeases(Lease client, EtcdCalls calls, BackendScheduler scheduler, Ticker ticker, Consumer<EtcdLease> onEnd) {
        this.client = client;
        this.calls = calls;
        this.scheduler = scheduler;
        this.ticker = ticker;
        this.onEnd = onEnd;
    }

    /** etcd leases are whole seconds: a lease is rounded up, never down. */
    static long ttlSeconds(long leaseMillis) {
        return Math.max(1, (leaseMillis + 999) / 1000);
    }

    /** @return the live lease of that TTL, granting it if there is none yet */
    EtcdLease forTtl(long ttl, String lockName) {
        EtcdLease lease = byTtl.get(ttl);
        if (lease != null && lease.alive()) {
            return lease;
        }
        synchronized (this) {
            lease = byTtl.get(ttl);
            if (lease != null && lease.alive()) {
                return lease;
            }
            if (closed) {
                throw new io.locksmith.LockClientClosedException(lockName, calls.description(), null);
            }
            long sentAt = ticker.nanoTime();
            LeaseGrantResponse granted =
                    calls.await(client.grant(ttl), "granting a " + ttl + " s etcd lease for lock '" + lockName + "'");
            if (granted.getTTL() > ttl) {
                log.warn(
                        "{} granted a {} s lease for a {} s request: its minimum lease TTL is longer, so a crashed"
                                + " holder's locks free later than their lease says",
                        calls.description(),
                        granted.getTTL(),
                        ttl);
            }
            EtcdLease created = new EtcdLease(granted.getID(), ttl, sentAt);
            Duration check = Duration.ofMillis(Math.max(1, TimeUnit.SECONDS.toMillis(ttl) / 6));
            created.keptAliveBy(scheduler.every(() -> keepAlive(created), check));
            byTtl.put(ttl, created);
            return created;
        }
    }

    private void keepAlive(EtcdLease lease) {
        long sentAt = ticker.nanoTime();
        if (sentAt - lease.confirmedAt() < TimeUnit.SECONDS.toNanos(lease.ttlSeconds) / 3 || !lease.startKeepAlive()) {
            return;
        }
        client.keepAliveOnce(lease.id)
                .orTimeout(calls.timeout().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((response, failure) -> {
                    lease.keepAliveDone();
                    if (failure == null && response.getTTL() > 0) {
                        lease.confirmed(sentAt);
                    } else if (failure == null || EtcdCalls.leaseNotFound(failure)) {
                        ended(lease);
                    } else {
                        log.debug(
                                "a keep-alive of {} on {} failed, the next one follows in a third of its TTL: {}",
                                lease,
                                calls.description(),
                                EtcdCalls.message(failure));
                    }
                });
    }

    /**
     * The server no longer knows the lease (it expired or was revoked, so its keys are gone):
     * stops keeping it alive and reports every key on it lost, once.
     */
    void ended(EtcdLease lease) {
        if (!lease.end()) {
            return;
        }
        byTtl.remove(lease.ttlSeconds, lease);
        if (!closed) {
            log.warn(
                    "{} no longer knows lease {} (it expired or was revoked): its locks are lost",
                    calls.description(),
                    lease);
            onEnd.accept(lease);
        }
    }

    /** Stops every keep-alive and revokes the leases, which deletes every key still on them at once. */
    @Override
    public synchronized void close() {
        closed = true;
        for (EtcdLease lease : byTtl.values()) {
            lease.end();
            try {
                calls.await(client.revoke(lease.id), "revoking etcd lease " + Long.toHexString(lease.id));
            } catch (RuntimeException e) {
                log.debug("could not revoke {} on {}; its keys expire with its TTL", lease, calls.description(), e);
            }
        }
        byTtl.clear();
    }
}
