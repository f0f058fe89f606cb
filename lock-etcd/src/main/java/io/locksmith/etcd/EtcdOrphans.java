package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.locksmith.spi.BackendScheduler;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The keys of one client that must not stay behind: a put or a delete whose outcome is unknown
 * (a timeout) leaves a key that would hold or queue on the client's live lease. Each is deleted
 * again, on the client's scheduler, until etcd confirms; nothing runs while there is none.
 *
 * <p>An own key's name ends with its owner, unique to one acquisition, so these deletes never
 * touch another owner's key.
 */
final class EtcdOrphans {

    private static final Duration RETRY = Duration.ofMillis(200);

    private final KV kv;
    private final BackendScheduler scheduler;
    private final Set<ByteSequence> orphans = ConcurrentHashMap.newKeySet();
    private final Set<ByteSequence> deleting = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    EtcdOrphans(KV kv, BackendScheduler scheduler) {
        this.kv = kv;
        this.scheduler = scheduler;
    }

    /** Deletes an own key whose fate is unknown, soon and again until etcd confirms it. */
    void orphan(ByteSequence ownKey) {
        orphans.add(ownKey);
        if (scheduled.compareAndSet(false, true)) {
            scheduler.schedule(this::sweep, RETRY);
        }
    }

    /**
     * Stops deleting a key that is about to be put again (the same owner acquiring again after an
     * attempt of unknown outcome). A delete already in flight may still remove the new key; that
     * shows as the key's loss, never as a grant.
     */
    void adopt(ByteSequence ownKey) {
        orphans.remove(ownKey);
    }

    /** Deletes an own key only if it still is the same key (same create revision). */
    CompletableFuture<Boolean> deleteIfSame(EtcdEntry entry) {
        return kv.txn()
                .If(new Cmp(entry.ownKey, Cmp.Op.EQUAL, CmpTarget.createRevision(entry.revision)))
                .Then(Op.delete(entry.ownKey, DeleteOption.DEFAULT))
                .commit()
                .thenApply(r -> r.isSucceeded());
    }

    /** Deletes an own key if it is still the same key, in the background; an unanswered delete orphans it. */
    void deleteLater(EtcdEntry entry) {
        deleteIfSame(entry).whenComplete((deleted, failure) -> {
            if (failure != null) {
                orphan(entry.ownKey);
            }
        });
    }

    private void sweep() {
        scheduled.set(false);
        for (ByteSequence key : orphans) {
            if (deleting.add(key)) { // one delete in flight per key, however long the cluster is away
                kv.delete(key).whenComplete((r, e) -> {
                    if (e == null) {
                        orphans.remove(key);
                    }
                    deleting.remove(key);
                });
            }
        }
        if (!orphans.isEmpty() && scheduled.compareAndSet(false, true)) {
            scheduler.schedule(this::sweep, RETRY); // again until every delete is confirmed
        }
    }
}
