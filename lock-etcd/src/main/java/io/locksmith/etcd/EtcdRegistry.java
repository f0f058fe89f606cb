package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.locksmith.LossReason;
import io.locksmith.spi.BackendEvents;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
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
    private static final long REWATCH_MILLIS = 250;
    private static final long PROGRESS_MILLIS = 5_000;

    final ConcurrentHashMap<ByteSequence, EtcdEntry> held = new ConcurrentHashMap<>();
    final ConcurrentHashMap<ByteSequence, EtcdTicket> waiting = new ConcurrentHashMap<>();
    private final Set<ByteSequence> orphans = ConcurrentHashMap.newKeySet();
    private final Set<ByteSequence> deleting = ConcurrentHashMap.newKeySet();
    private final KV kv;
    private final BackendEvents events;
    private final ScheduledExecutorService timer;
    private Watch watch;
    private ByteSequence namespacePrefix;
    private volatile Watch.Watcher deletions;
    private long watchGeneration;
    private boolean closed;

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

    /**
     * Watches every deletion under the namespace from {@code revision} on; one stream per client.
     * When it ends for any reason (jetcd gives a watch up for good when its revision was compacted
     * away, and on most errors) it is made again from a fresh look at the namespace: a key of ours
     * that went while nobody watched is reported then. Progress requests keep a quiet watch's
     * revision moving, so that a reconnect after a compaction rarely finds it compacted at all.
     */
    void watchDeletions(Watch watch, ByteSequence namespacePrefix, long revision) {
        this.watch = watch;
        this.namespacePrefix = namespacePrefix;
        watchFrom(revision);
        timer.scheduleWithFixedDelay(this::requestProgress, PROGRESS_MILLIS, PROGRESS_MILLIS, TimeUnit.MILLISECONDS);
    }

    private synchronized void watchFrom(long revision) {
        if (closed) {
            return;
        }
        long generation = ++watchGeneration;
        WatchOption option = WatchOption.builder().isPrefix(true).withNoPut(true).withProgressNotify(true)
                .withRevision(revision).build();
        deletions = watch.watch(namespacePrefix, option, this::deleted, e -> watchEnded(generation, e),
                () -> watchEnded(generation, null));
    }

    private void watchEnded(long generation, Throwable cause) {
        synchronized (this) {
            if (generation != watchGeneration || closed) {
                return; // a watch we replaced or closed ourselves
            }
            watchGeneration++;
            Watch.Watcher ended = deletions;
            if (ended != null) {
                ended.close();
            }
            deletions = null;
        }
        log.debug("the deletion watch ended ({}); watching again from a fresh look", cause == null ? "completed"
                : EtcdCalls.message(cause));
        rewatchLater();
    }

    private void rewatchLater() {
        try {
            timer.schedule(this::rewatch, REWATCH_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    /** Looks at the namespace, reports what went unseen, and watches from the revision of that look. */
    private void rewatch() {
        kv.get(namespacePrefix, GetOption.builder().isPrefix(true).withKeysOnly(true).build()).whenComplete((r, e) -> {
            if (e != null) {
                rewatchLater();
                return;
            }
            long revision = r.getHeader().getRevision();
            Set<ByteSequence> present = new HashSet<>();
            r.getKvs().forEach(kv -> present.add(kv.getKey()));
            // a key put after this look is not in it: only keys older than the look can be missing
            for (EtcdEntry entry : held.values()) {
                if (entry.revision <= revision && !present.contains(entry.ownKey) && held.remove(entry.ownKey, entry)) {
                    events.lost(entry.lockKey, entry.owner, LossReason.OWNERSHIP_LOST);
                }
            }
            for (EtcdTicket ticket : waiting.values()) {
                if (ticket.revision() <= revision && !present.contains(ticket.ownKey())) {
                    ticket.removedBehindItsBack();
                }
            }
            watchFrom(revision + 1);
        });
    }

    private void requestProgress() {
        Watch.Watcher w = deletions;
        if (w != null) {
            w.requestProgress();
        }
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

    /**
     * Stops deleting a key that is about to be put again (the same owner acquiring again after an
     * attempt of unknown outcome). A delete already in flight may still remove the new key; that
     * shows as the key's loss, never as a grant.
     */
    void adopt(ByteSequence ownKey) {
        orphans.remove(ownKey);
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
        Watch.Watcher w;
        synchronized (this) {
            closed = true;
            w = deletions;
            deletions = null;
        }
        if (w != null) {
            w.close();
        }
        waiting.values().forEach(EtcdTicket::cancel);
        timer.shutdownNow();
    }
}
