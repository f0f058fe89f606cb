package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.locksmith.LossReason;
import io.locksmith.spi.BackendEvents;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one client has in etcd: its granted keys and its waiting tickets, watched for deletion
 * behind its back through one watch on the namespace; and the cleanup of keys it must not leave
 * behind (grants no longer renewed, keys whose put or delete had an unknown outcome), done by one
 * timer thread.
 */
final class EtcdRegistry implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EtcdRegistry.class);
    private static final long SWEEP_MILLIS = 200;

    final ConcurrentHashMap<ByteSequence, EtcdEntry> held = new ConcurrentHashMap<>();
    final ConcurrentHashMap<ByteSequence, EtcdTicket> waiting = new ConcurrentHashMap<>();
    private final Set<ByteSequence> orphans = ConcurrentHashMap.newKeySet();
    private final Set<ByteSequence> deleting = ConcurrentHashMap.newKeySet();
    private final KV kv;
    private final BackendEvents events;
    private final ScheduledExecutorService timer;
    private volatile Watch.Watcher deletions;

    EtcdRegistry(KV kv, BackendEvents events) {
        this.kv = kv;
        this.events = events;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "locksmith-etcd-timer");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Watches every deletion under the namespace from {@code revision} on; one stream per client. */
    void watchDeletions(Watch watch, ByteSequence namespacePrefix, long revision) {
        WatchOption option = WatchOption.builder().isPrefix(true).withNoPut(true).withRevision(revision).build();
        deletions = watch.watch(namespacePrefix, option, this::deleted, e -> {
            // renewals still find a deleted key within a tick; the watch is a faster path, not the only one
            log.debug("the deletion watch ended: {}", e.toString());
        });
    }

    private void deleted(WatchResponse response) {
        for (WatchEvent event : response.getEvents()) {
            if (event.getEventType() != WatchEvent.EventType.DELETE) {
                continue;
            }
            ByteSequence key = event.getKeyValue().getKey();
            EtcdEntry entry = held.remove(key);
            if (entry != null) {
                events.lost(entry.lockKey, entry.owner, entry.lease.alive() ? LossReason.OWNERSHIP_LOST
                        : LossReason.SESSION_LOST);
            }
            EtcdTicket ticket = waiting.get(key);
            if (ticket != null) {
                ticket.removedBehindItsBack();
            }
        }
    }

    /** Every grant and ticket on a lease that ended is lost. */
    void leaseDied(EtcdLease lease) {
        held.values().removeIf(entry -> {
            if (entry.lease == lease) {
                events.lost(entry.lockKey, entry.owner, LossReason.SESSION_LOST);
                return true;
            }
            return false;
        });
        waiting.values().forEach(ticket -> ticket.leaseDied(lease));
    }

    /** Deletes a key of ours whose fate is unknown, now and again until etcd confirms it. */
    void orphan(ByteSequence ownKey) {
        orphans.add(ownKey);
    }

    /** Deletes an own key only if it still is the same key (same create revision). */
    CompletableFuture<Boolean> deleteIfSame(ByteSequence ownKey, long revision) {
        return kv.txn().If(new Cmp(ownKey, Cmp.Op.EQUAL, CmpTarget.createRevision(revision)))
                .Then(Op.delete(ownKey, DeleteOption.DEFAULT)).commit()
                .thenApply(r -> r.isSucceeded());
    }

    ScheduledExecutorService timer() {
        return timer;
    }

    private void sweep() {
        long now = System.nanoTime();
        for (EtcdEntry entry : held.values()) {
            if (entry.keepUntilNanos - now <= 0 && held.remove(entry.ownKey, entry)) {
                // the core already reports this grant expired; free the lock for the next waiter
                deleteIfSame(entry.ownKey, entry.revision).whenComplete((ok, e) -> {
                    if (e != null) {
                        orphans.add(entry.ownKey);
                    }
                });
            }
        }
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
    }

    @Override
    public void close() {
        Watch.Watcher w = deletions;
        if (w != null) {
            w.close();
        }
        waiting.values().forEach(EtcdTicket::cancel);
        timer.shutdownNow();
    }
}
