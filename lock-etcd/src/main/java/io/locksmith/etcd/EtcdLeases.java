package io.locksmith.etcd;

import io.etcd.jetcd.Lease;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's etcd leases: one per distinct TTL, granted on first use and kept alive until it dies
 * or the client closes. Acquisitions never grant a lease of their own.
 */
final class EtcdLeases implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EtcdLeases.class);

    private final Lease client;
    private final EtcdCalls calls;
    private final Consumer<EtcdLease> onDeath;
    private final Map<Long, EtcdLease> byTtl = new ConcurrentHashMap<>();
    private volatile boolean closed;

    EtcdLeases(Lease client, EtcdCalls calls, Consumer<EtcdLease> onDeath) {
        this.client = client;
        this.calls = calls;
        this.onDeath = onDeath;
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
                throw new IllegalStateException("the etcd lock client for " + calls.description() + " is closed");
            }
            LeaseGrantResponse granted = calls.await(client.grant(ttl), "granting a lease for", lockName);
            if (granted.getTTL() > ttl) {
                log.warn("{} granted a {} s lease for a {} s request: its minimum lease TTL is longer, so a crashed"
                        + " holder's locks free later than their lease says", calls.description(), granted.getTTL(), ttl);
            }
            EtcdLease created = new EtcdLease(granted.getID(), ttl, this::died);
            created.keptAliveBy(client.keepAlive(granted.getID(), created));
            byTtl.put(ttl, created);
            return created;
        }
    }

    private void died(EtcdLease lease) {
        byTtl.remove(lease.ttlSeconds, lease);
        log.warn("lease {} on {} ended; its locks are lost", lease, calls.description());
        onDeath.accept(lease);
    }

    /** Stops every keep-alive and revokes the leases, which deletes every key still on them at once. */
    @Override
    public synchronized void close() {
        closed = true;
        for (EtcdLease lease : byTtl.values()) {
            lease.close();
            try {
                calls.await(client.revoke(lease.id), "revoking the lease of", "*");
            } catch (RuntimeException e) {
                log.debug("could not revoke {} on {}; its keys expire with its TTL", lease, calls.description(), e);
            }
        }
        byTtl.clear();
    }
}
