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
import io.locksmith.LossReason;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.BackendScheduler;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Locks in etcd. Every acquisition puts its own key under the lock's prefix, attached to the
 * client's lease for that lease length, and the key with the lowest create revision holds; that
 * revision is the fencing token. Waiters queue by revision and watch only their predecessor.
 * Semaphores and read-write locks use the same queue under prefixes of their own ({@link EtcdShared}).
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
    private final BackendContext context;
    private final EtcdOrphans orphans;
    private final EtcdDeletions deletions;
    private final EtcdLeases leases;
    private final EtcdRenewal renewal;
    private final BackendScheduler.Scheduled reconnect;
    private final EtcdShared shared;
    private final QueuedAcquirer queue = this::enqueue;

    EtcdBackend(Client client, boolean owned, EtcdKeys keys, EtcdCalls calls, BackendContext context) {
        this.client = client;
        this.owned = owned;
        this.kv = client.getKVClient();
        this.keys = keys;
        this.calls = calls;
        this.context = context;
        this.orphans = new EtcdOrphans(kv, context.scheduler());
        this.deletions = new EtcdDeletions(kv, client.getWatchClient(), keys, context);
        this.leases = new EtcdLeases(
                client.getLeaseClient(), calls, context.scheduler(), context.ticker(), deletions::leaseDied);
        this.renewal = new EtcdRenewal(client, leases, calls, context.ticker());
        this.shared = new EtcdShared(kv, keys, leases, calls, orphans);
        this.reconnect = EtcdReconnect.keep(client, context.scheduler(), context.ticker(), calls.timeout());
    }

    /** Checks that the cluster answers (and takes the credentials), then starts watching for deletions. */
    EtcdBackend start() {
        long revision = calls.await(
                        kv.get(
                                keys.namespacePrefix(),
                                GetOption.builder()
                                        .withCountOnly(true)
                                        .isPrefix(true)
                                        .build()),
                        "connecting")
                .getHeader()
                .getRevision();
        deletions.start(revision + 1);
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
    public Set<Hold.Kind> holds() {
        return EnumSet.allOf(Hold.Kind.class);
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        if (request.hold().kind() != Hold.Kind.EXCLUSIVE) {
            return shared.tryAcquire(request);
        }
        Put put = put(request);
        if (put.holds()) {
            // putting a key on a lease does not refresh the lease: the grant's server deadline rests
            // on the lease's last answered keep-alive, which may have been sent before this attempt
            return new Grant(put.entry().revision, put.entry())
                    .confirmedAt(put.entry().lease.confirmedAt());
        }
        // a try never waits: leave the queue at once
        try {
            calls.await(kv.delete(put.entry().ownKey), "leaving the queue", request.name());
        } catch (LockBackendException e) {
            orphans.orphan(put.entry().ownKey);
        }
        return Held.UNKNOWN;
    }

    /** A put's answer: the own key's entry, and whether it is the lock's oldest key. */
    private record Put(EtcdEntry entry, boolean holds) {}

    /**
     * Puts the request's own key on its lease and, in the same transaction, reads it back and reads
     * the lock's oldest key.
     */
    private Put put(AcquireRequest request) {
        EtcdLease lease = leases.forTtl(EtcdLeases.ttlSeconds(request.lease().toMillis()), request.name());
        ByteSequence own = keys.own(request.key(), request.owner());
        GetOption oldest = GetOption.builder()
                .isPrefix(true)
                .withKeysOnly(true)
                .withLimit(1)
                .withSortField(GetOption.SortTarget.CREATE)
                .withSortOrder(GetOption.SortOrder.ASCEND)
                .build();
        orphans.adopt(own); // a retry of this owner's acquisition: its key is no longer an orphan to delete
        TxnResponse response;
        try {
            response = calls.await(
                    kv.txn()
                            .Then(
                                    Op.put(
                                            own,
                                            EtcdKeys.bytes(request.name()),
                                            PutOption.builder()
                                                    .withLeaseId(lease.id)
                                                    .build()),
                                    Op.get(
                                            own,
                                            GetOption.builder()
                                                    .withKeysOnly(true)
                                                    .build()),
                                    Op.get(keys.lockPrefix(request.key()), oldest))
                            .commit(),
                    "acquisition",
                    request.name());
        } catch (LockBackendException e) {
            if (EtcdCalls.leaseNotFound(e)) {
                leases.ended(lease); // expired on the server: the next attempt grants a new one
            } else {
                orphans.orphan(own); // the put may have been applied: never leave the key behind
            }
            throw e;
        }
        List<KeyValue> mine = response.getGetResponses().get(0).getKvs();
        List<KeyValue> first = response.getGetResponses().get(1).getKvs();
        if (mine.isEmpty() || first.isEmpty()) {
            orphans.orphan(own);
            throw new LockBackendException("acquisition of lock '" + request.name() + "' on " + description()
                    + " found its own key gone in the same transaction (its lease ended)");
        }
        EtcdEntry entry = new EtcdEntry(own, mine.get(0).getCreateRevision(), lease);
        return new Put(entry, first.get(0).getKey().equals(own));
    }

    private QueuedAcquirer.Ticket enqueue(AcquireRequest request) {
        if (request.hold().kind() != Hold.Kind.EXCLUSIVE) {
            return shared.enqueue(request, this);
        }
        Put put;
        try {
            put = put(request);
        } catch (LockBackendException e) {
            // the core decides whether to queue again; a put that took effect anyway is deleted
            // in the background (put orphaned it)
            return EtcdTicket.failed(e);
        }
        EtcdTicket ticket = new EtcdTicket(request, put.entry(), this);
        deletions.waiting(ticket);
        if (put.holds()) {
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
    public List<RenewOutcome> renew(List<HeldLease> held) {
        return renewal.renew(held);
    }

    /**
     * An attempt's put may take effect without its answer coming back: its key then holds or
     * queues for a whole lease. The key is the owner's alone (its name ends with the owner), so
     * deleting it never touches another owner's; a delete that fails is retried in the background.
     */
    @Override
    public void abandon(AcquireRequest request) {
        ByteSequence own = keys.own(request.hold().kind(), request.key(), request.owner());
        try {
            calls.await(kv.delete(own), "abandoning an attempt", request.name());
        } catch (LockBackendException e) {
            orphans.orphan(own);
            throw e;
        }
    }

    @Override
    public boolean release(HeldLease lease) {
        EtcdEntry entry = lease.attachment(EtcdEntry.class);
        try {
            return calls.await(orphans.deleteIfSame(entry), "release", lease.name());
        } catch (LockBackendException e) {
            orphans.orphan(entry.ownKey);
            throw e;
        }
    }

    /**
     * The client's etcd lease outlives a grant the core no longer counts (it is kept alive for the
     * waiters and the other grants), so the key would keep the lock from the next waiter: it is
     * deleted here, guarded by its revision, and in the background until etcd confirms.
     */
    @Override
    public void lost(HeldLease lease, LossReason reason) {
        orphans.deleteLater(lease.attachment(EtcdEntry.class));
    }

    @Override
    public void close() {
        try {
            reconnect.cancel();
            deletions.close();
            leases.close();
        } finally {
            if (owned) {
                client.close();
            }
        }
    }

    Client client() {
        return client;
    }

    EtcdKeys keys() {
        return keys;
    }

    EtcdDeletions deletions() {
        return deletions;
    }

    EtcdShared shared() {
        return shared;
    }

    EtcdOrphans orphans() {
        return orphans;
    }

    BackendContext context() {
        return context;
    }

    @Override
    public String toString() {
        return "EtcdBackend[" + description() + ", namespace=" + keys.namespace() + "]";
    }
}
