package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.lease.LeaseTimeToLiveResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.locksmith.LockBackendException;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.RenewOutcome;
import io.locksmith.spi.Ticker;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Renews a batch of held locks with a cost that does not grow with their number: per etcd lease
 * (one per distinct lease length, usually one per client), a keep-alive that restarts the lease's
 * TTL on the server and, sent at the same time, a time-to-live query that lists the keys still
 * attached to it. A held key on that list is renewed; a key missing from it was deleted.
 */
final class EtcdRenewal {

    private final Client client;
    private final Lease leaseClient;
    private final EtcdLeases leases;
    private final EtcdCalls calls;
    private final Ticker ticker;

    EtcdRenewal(Client client, EtcdLeases leases, EtcdCalls calls, Ticker ticker) {
        this.client = client;
        this.leaseClient = client.getLeaseClient();
        this.leases = leases;
        this.calls = calls;
        this.ticker = ticker;
    }

    List<RenewOutcome> renew(List<HeldLease> held) {
        long sentAt = ticker.nanoTime();
        RenewOutcome[] outcomes = new RenewOutcome[held.size()];
        Map<EtcdLease, List<Integer>> byLease = new LinkedHashMap<>();
        for (int i = 0; i < held.size(); i++) {
            HeldLease h = held.get(i);
            EtcdEntry entry = h.attachment(EtcdEntry.class);
            if (!entry.lease.alive()) {
                outcomes[i] = RenewOutcome.NOT_OWNED;
                continue;
            }
            long ttl = EtcdLeases.ttlSeconds(h.lease().toMillis());
            if (ttl > entry.lease.ttlSeconds && !move(entry, ttl, h.token(), h.name())) {
                outcomes[i] = RenewOutcome.NOT_OWNED;
                continue;
            }
            byLease.computeIfAbsent(entry.lease, l -> new ArrayList<>()).add(i);
        }
        for (Map.Entry<EtcdLease, List<Integer>> group : byLease.entrySet()) {
            renewGroup(group.getKey(), group.getValue(), held, outcomes, sentAt);
        }
        return List.of(outcomes);
    }

    private void renewGroup(
            EtcdLease lease, List<Integer> indexes, List<HeldLease> held, RenewOutcome[] outcomes, long sentAt) {
        String name = held.get(indexes.get(0)).name();
        CompletableFuture<LeaseKeepAliveResponse> keptAlive = leaseClient.keepAliveOnce(lease.id);
        CompletableFuture<LeaseTimeToLiveResponse> attached = leaseClient.timeToLive(
                lease.id, LeaseOption.builder().withAttachedKeys().build());
        boolean alive;
        try {
            alive = calls.await(keptAlive, "renewal", name).getTTL() > 0;
            if (alive) {
                lease.confirmed(sentAt);
            }
        } catch (LockBackendException e) {
            if (!EtcdCalls.leaseNotFound(e)) {
                attached.cancel(true);
                throw e;
            }
            alive = false;
        }
        if (!alive) {
            attached.cancel(true);
            leases.ended(lease);
            indexes.forEach(i -> outcomes[i] = RenewOutcome.NOT_OWNED);
            return;
        }
        Set<ByteSequence> keys =
                new HashSet<>(calls.await(attached, "renewal", name).getKeys());
        for (int i : indexes) {
            EtcdEntry entry = held.get(i).attachment(EtcdEntry.class);
            outcomes[i] = keys.contains(entry.ownKey) ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED;
        }
    }

    /**
     * Moves a held key to the lease of a longer TTL ({@code extend} with a longer lease): a put that
     * keeps the key's create revision, so its token and place stay, guarded by that revision. A
     * shared hold's token is the revision of the write that granted it, which this put replaces:
     * the put writes the token into the held mark.
     */
    private boolean move(EtcdEntry entry, long ttl, long token, String name) {
        EtcdLease longer = leases.forTtl(ttl, name);
        boolean moved = calls.await(
                        client.getKVClient()
                                .txn()
                                .If(new Cmp(entry.ownKey, Cmp.Op.EQUAL, CmpTarget.createRevision(entry.revision)))
                                .Then(Op.put(
                                        entry.ownKey,
                                        value(entry, token, name),
                                        PutOption.builder()
                                                .withLeaseId(longer.id)
                                                .build()))
                                .commit(),
                        "extending",
                        name)
                .isSucceeded();
        if (moved) {
            entry.lease = longer;
        }
        return moved;
    }

    private static ByteSequence value(EtcdEntry entry, long token, String name) {
        return entry.hold.kind() == Hold.Kind.EXCLUSIVE ? EtcdKeys.bytes(name) : EtcdShares.held(entry.hold, token);
    }
}
