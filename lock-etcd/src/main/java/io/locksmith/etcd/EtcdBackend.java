package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.QueuedAcquirer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Locks in etcd. Every acquisition puts its own key under the lock's prefix, attached to the
 * client's lease for that lease length, and the key with the lowest create revision holds; that
 * revision is the fencing token. Waiters queue by revision and watch only their predecessor.
 */
final class EtcdBackend implements LockBackend {

    /**
     * etcd's minimum lease TTL is 1.5 election timeouts rounded up to whole seconds: 2 s with the
     * default 1 s election timeout. A shorter lease would silently last longer on the server.
     */
    static final Duration MINIMUM_LEASE = Duration.ofSeconds(2);

    private final Client client;
    private final boolean owned;
    private final KV kv;
    private final EtcdKeys keys;
    private final EtcdCalls calls;
    private final EtcdRegistry registry;
    private final EtcdLeases leases;
    private final EtcdRenewal renewal;
    private final QueuedAcquirer queue = this::enqueue;

    EtcdBackend(Client client, boolean owned, EtcdKeys keys, EtcdCalls calls, BackendEvents events) {
        this.client = client;
        this.owned = owned;
        this.kv = client.getKVClient();
        this.keys = keys;
        this.calls = calls;
        this.registry = new EtcdRegistry(kv, events);
        this.leases = new EtcdLeases(client.getLeaseClient(), calls, registry.timer(), registry::leaseDied);
        this.renewal = new EtcdRenewal(client, leases, registry, calls);
        EtcdReconnect.keep(client, registry.timer(), calls.timeout());
    }

    /** Checks that the cluster answers (and takes the credentials), then starts watching for deletions. */
    EtcdBackend start() {
        long revision = calls.await(kv.get(keys.namespacePrefix(), GetOption.builder().withCountOnly(true)
                .isPrefix(true).build()), "connecting").getHeader().getRevision();
        registry.watchDeletions(client.getWatchClient(), keys.namespacePrefix(), revision + 1);
        return this;
    }

    @Override
    public String description() {
        return calls.description();
    }

    @Override
    public Duration minimumLease() {
        return MINIMUM_LEASE;
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        EtcdEntry entry = put(request);
        if (entry.revision > 0) {
            // putting a key on a lease does not refresh the lease: the grant's server deadline rests
            // on the lease's last answered keep-alive, which may have been sent before this attempt
            long confirmedAt = entry.lease.confirmedAt();
            entry.keepFrom(confirmedAt, entry.leaseMillis);
            registry.held.put(entry.ownKey, entry);
            return new Grant(entry.revision, entry).confirmedAt(confirmedAt);
        }
        // a try never waits: leave the queue at once
        try {
            calls.await(kv.delete(entry.ownKey), "leaving the queue", request.name());
        } catch (LockBackendException e) {
            registry.orphan(entry.ownKey);
        }
        return Held.UNKNOWN;
    }

    /**
     * Puts the request's own key on its lease and, in the same transaction, reads it back and reads
     * the lock's oldest key. Returns the entry with its revision set if it holds the lock, or with
     * the negated revision if another key is older.
     */
    private EtcdEntry put(AcquireRequest request) {
        long leaseMillis = request.lease().toMillis();
        EtcdLease lease = leases.forTtl(EtcdLeases.ttlSeconds(leaseMillis), request.name());
        ByteSequence own = keys.own(request.key(), request.owner());
        EtcdEntry entry = new EtcdEntry(request.key(), request.name(), request.owner(), own, leaseMillis, lease);
        GetOption oldest = GetOption.builder().isPrefix(true).withKeysOnly(true).withLimit(1)
                .withSortField(GetOption.SortTarget.CREATE).withSortOrder(GetOption.SortOrder.ASCEND).build();
        registry.adopt(own); // a retry of this owner's acquisition: its key is no longer an orphan to delete
        TxnResponse response;
        try {
            response = calls.await(kv.txn().Then(
                    Op.put(own, EtcdKeys.bytes(request.name()), PutOption.builder().withLeaseId(lease.id).build()),
                    Op.get(own, GetOption.builder().withKeysOnly(true).build()),
                    Op.get(keys.lockPrefix(request.key()), oldest)).commit(), "acquisition", request.name());
        } catch (LockBackendException e) {
            if (EtcdCalls.leaseNotFound(e)) {
                leases.ended(lease); // expired on the server: the next attempt grants a new one
            } else {
                registry.orphan(own); // the put may have been applied: never leave the key behind
            }
            throw e;
        }
        List<KeyValue> mine = response.getGetResponses().get(0).getKvs();
        List<KeyValue> first = response.getGetResponses().get(1).getKvs();
        if (mine.isEmpty() || first.isEmpty()) {
            registry.orphan(own);
            throw new LockBackendException("acquisition of lock '" + request.name() + "' on " + description()
                    + " found its own key gone in the same transaction (its lease ended)");
        }
        long revision = mine.get(0).getCreateRevision();
        entry.revision = first.get(0).getKey().equals(own) ? revision : -revision;
        return entry;
    }

    private QueuedAcquirer.Ticket enqueue(AcquireRequest request) {
        EtcdEntry entry;
        try {
            entry = put(request);
        } catch (LockBackendException e) {
            // the core decides whether to queue again; a put that took effect anyway is deleted
            // in the background (put orphaned it)
            return EtcdTicket.failed(e);
        }
        boolean holds = entry.revision > 0;
        entry.revision = Math.abs(entry.revision);
        EtcdTicket ticket = new EtcdTicket(entry, keys.lockPrefix(request.key()), kv, client.getWatchClient(),
                registry, description());
        registry.waiting.put(entry.ownKey, ticket);
        if (holds) {
            ticket.grant();
        } else {
            ticket.follow();
        }
        return ticket;
    }

    @Override
    public Optional<LockInspector> inspector() {
        return Optional.of(new EtcdInspector(client, keys, calls));
    }

    @Override
    public Optional<QueuedAcquirer> queue() {
        return Optional.of(queue);
    }

    @Override
    public List<io.locksmith.spi.RenewOutcome> renew(List<HeldLease> held) {
        return renewal.renew(held);
    }

    /**
     * An attempt's put may take effect without its answer coming back: its key then holds or
     * queues for a whole lease. The key is the owner's alone (its name ends with the owner), so
     * deleting it never touches another owner's; a delete that fails is retried in the background.
     */
    @Override
    public void abandon(AcquireRequest request) {
        ByteSequence own = keys.own(request.key(), request.owner());
        registry.held.remove(own); // never handed out: its deletion is no loss to report
        try {
            calls.await(kv.delete(own), "abandoning an attempt", request.name());
        } catch (LockBackendException e) {
            registry.orphan(own);
            throw e;
        }
    }

    @Override
    public boolean release(HeldLease lease) {
        EtcdEntry entry = (EtcdEntry) lease.attachment();
        registry.held.remove(entry.ownKey, entry); // our own delete is no loss
        try {
            return calls.await(registry.deleteIfSame(entry.ownKey, entry.revision), "release", lease.name());
        } catch (LockBackendException e) {
            registry.orphan(entry.ownKey);
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            registry.close();
            leases.close();
        } finally {
            if (owned) {
                client.close();
            }
        }
    }

    @Override
    public String toString() {
        return "EtcdBackend[" + description() + ", namespace=" + keys.namespace() + "]";
    }
}
