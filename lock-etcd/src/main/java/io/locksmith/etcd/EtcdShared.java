package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.locksmith.LockBackendException;
import io.locksmith.PermitMismatchException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.Hold;
import io.locksmith.spi.QueuedAcquirer;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Acquisitions of a semaphore's permit and of a read-write lock's sides: the same queue as a
 * lock's (an own key per acquisition, ordered by create revision), under the family's prefix,
 * with a mark in the key's value ({@link EtcdShares}). Several keys can hold at once and one
 * release can let several go, so queue order is not grant order: the token is the revision of a
 * write made at grant time, the put that marks the key held ({@link #markHeld}).
 */
final class EtcdShared {

    private final KV kv;
    private final EtcdKeys keys;
    private final EtcdLeases leases;
    private final EtcdCalls calls;
    private final EtcdOrphans orphans;

    EtcdShared(KV kv, EtcdKeys keys, EtcdLeases leases, EtcdCalls calls, EtcdOrphans orphans) {
        this.kv = kv;
        this.keys = keys;
        this.leases = leases;
        this.calls = calls;
        this.orphans = orphans;
    }

    /**
     * A shared hold's try: the put, then, if it holds, the write that grants it (its revision is
     * the token); a key that does not hold leaves the queue at once.
     */
    AcquireResult tryAcquire(AcquireRequest request) {
        Put put = put(request);
        EtcdEntry entry = put.entry();
        long token = put.grantedToken();
        if (token == 0 && put.holds()) {
            token = markHeldNow(entry, request.name());
        }
        if (token == 0) {
            leave(entry, request.name());
            return Held.UNKNOWN;
        }
        return new Grant(token, entry).confirmedAt(entry.lease.confirmedAt());
    }

    /**
     * Queues a shared hold's acquisition as a lock's is queued; a permit mismatch is thrown from
     * here, ending the wait.
     */
    QueuedAcquirer.Ticket enqueue(AcquireRequest request, EtcdBackend backend) {
        Put put;
        try {
            put = put(request);
        } catch (LockBackendException e) {
            return EtcdTicket.failed(e);
        }
        EtcdTicket ticket = new EtcdTicket(request, put.entry(), backend);
        backend.deletions().waiting(ticket);
        if (put.grantedToken() != 0) {
            ticket.granted(put.grantedToken());
        } else if (put.holds()) {
            ticket.grant();
        } else {
            ticket.follow();
        }
        return ticket;
    }

    /**
     * A put's answer: the own key's entry, whether it holds, and the token if an earlier attempt
     * of the same owner was already granted (0 if not).
     */
    record Put(EtcdEntry entry, boolean holds, long grantedToken) {}

    /**
     * Puts the request's own key, marked queued, on its lease and, in the same transaction, reads
     * it back and reads the keys that decide whether it holds. A key this owner was already
     * granted (an attempt whose answer was lost) is left as it is and read back with its token.
     *
     * @throws PermitMismatchException if the semaphore's holders have another number of permits
     *     (the own key is deleted first)
     */
    Put put(AcquireRequest request) {
        Hold hold = request.hold();
        EtcdLease lease = leases.forTtl(EtcdLeases.ttlSeconds(request.lease().toMillis()), request.name());
        ByteSequence own = keys.own(hold.kind(), request.key(), request.owner());
        Op.GetOp readAhead = Op.get(keys.prefix(hold.kind(), request.key()), ahead(hold));
        Op.GetOp readOwn = Op.get(own, GetOption.DEFAULT);
        orphans.adopt(own);
        TxnResponse response;
        try {
            response = calls.await(
                    kv.txn()
                            .If(new Cmp(own, Cmp.Op.EQUAL, CmpTarget.value(EtcdShares.held(hold))))
                            .Then(readOwn, readAhead)
                            .Else(
                                    Op.put(
                                            own,
                                            EtcdShares.queued(hold),
                                            PutOption.builder()
                                                    .withLeaseId(lease.id)
                                                    .build()),
                                    readOwn,
                                    readAhead)
                            .commit(),
                    "acquisition",
                    request.name());
        } catch (LockBackendException e) {
            if (EtcdCalls.leaseNotFound(e)) {
                leases.ended(lease);
            } else {
                orphans.orphan(own);
            }
            throw e;
        }
        List<KeyValue> mine = response.getGetResponses().get(0).getKvs();
        List<KeyValue> ahead = response.getGetResponses().get(1).getKvs();
        if (mine.isEmpty() || ahead.isEmpty() || mine.get(0).getLease() != lease.id) {
            orphans.orphan(own);
            throw new LockBackendException("acquisition of lock '" + request.name() + "' on " + calls.description()
                    + " found its own key gone or on another etcd lease (its lease ended)");
        }
        KeyValue ownKv = mine.get(0);
        EtcdEntry entry = new EtcdEntry(own, ownKv.getCreateRevision(), lease, hold);
        if (response.isSucceeded()) {
            long token = EtcdShares.mark(ownKv.getValue())
                    .map(m -> EtcdShares.token(ownKv, m))
                    .orElseThrow();
            return new Put(entry, true, token);
        }
        EtcdShares.mismatch(hold, ownKv, ahead).ifPresent(held -> {
            leave(entry, request.name());
            throw new PermitMismatchException(request.name(), held, hold.permits(), calls.description());
        });
        return new Put(entry, EtcdShares.holds(hold, ownKv, ahead), 0);
    }

    /**
     * The keys that decide: a permit of {@code n} looks at the first {@code n} keys, a reader at
     * every key (for an older writer), a writer at the oldest key alone.
     */
    private static GetOption ahead(Hold hold) {
        GetOption.Builder option = GetOption.builder()
                .isPrefix(true)
                .withSortField(GetOption.SortTarget.CREATE)
                .withSortOrder(GetOption.SortOrder.ASCEND);
        return switch (hold.kind()) {
            case PERMIT -> option.withLimit(hold.permits()).build();
            case READ -> option.build();
            case WRITE, EXCLUSIVE -> option.withLimit(1).build();
        };
    }

    /**
     * The grant's own write: marks the key held if it still is the key this acquisition put.
     *
     * @return the transaction's answer: succeeded with the grant's token as its header revision,
     *     or not succeeded if the key is gone
     */
    CompletableFuture<TxnResponse> markHeld(EtcdEntry entry) {
        return kv.txn()
                .If(new Cmp(entry.ownKey, Cmp.Op.EQUAL, CmpTarget.createRevision(entry.revision)))
                .Then(Op.put(
                        entry.ownKey,
                        EtcdShares.held(entry.hold),
                        PutOption.builder().withLeaseId(entry.lease.id).build()))
                .commit();
    }

    /** @return the grant's token, after marking the key held; 0 if the key is gone */
    long markHeldNow(EtcdEntry entry, String name) {
        try {
            TxnResponse marked = calls.await(markHeld(entry), "granting", name);
            return marked.isSucceeded() ? marked.getHeader().getRevision() : 0;
        } catch (LockBackendException e) {
            orphans.orphan(entry.ownKey);
            throw e;
        }
    }

    /** Deletes an own key that is not to hold or wait, now or in the background. */
    void leave(EtcdEntry entry, String name) {
        try {
            calls.await(orphans.deleteIfSame(entry), "leaving the queue", name);
        } catch (LockBackendException e) {
            orphans.orphan(entry.ownKey);
        }
    }
}
