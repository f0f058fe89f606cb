package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.locksmith.LossReason;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.BackendScheduler;
import io.locksmith.spi.HeldLease;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the keys of one client that went behind its back, through one watch on the namespace's
 * deletions, and tells whom it concerns: a grant the core holds ({@link BackendContext#heldLeases()},
 * matched by lock key, owner and the create revision in its {@link EtcdEntry}) is reported lost;
 * a waiting ticket fails. The waiting tickets are listed here, as the queue's own state; the held
 * grants are the core's alone.
 *
 * <p>A deletion that arrives before the core lists its grant (in the moment between the grant's
 * transaction and the core taking it) is not reported here; the next renewal finds the key gone.
 */
final class EtcdDeletions implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EtcdDeletions.class);
    private static final Duration REWATCH = Duration.ofMillis(250);
    private static final Duration PROGRESS = Duration.ofSeconds(5);

    private final ConcurrentHashMap<ByteSequence, EtcdTicket> waiting = new ConcurrentHashMap<>();
    private final KV kv;
    private final Watch watch;
    private final EtcdKeys keys;
    private final BackendContext context;
    private volatile Watch.Watcher deletions;
    private volatile BackendScheduler.Scheduled progress;
    private long watchGeneration;
    private boolean closed;

    EtcdDeletions(KV kv, Watch watch, EtcdKeys keys, BackendContext context) {
        this.kv = kv;
        this.watch = watch;
        this.keys = keys;
        this.context = context;
    }

    /**
     * Watches every deletion under the namespace from {@code revision} on; one stream per client.
     * When it ends for any reason (jetcd gives a watch up for good when its revision was compacted
     * away, and on most errors) it is made again from a fresh look at the namespace: a key of ours
     * that went while nobody watched is reported then. Progress requests keep a quiet watch's
     * revision moving, so that a reconnect after a compaction rarely finds it compacted at all.
     */
    void start(long revision) {
        watchFrom(revision);
        progress = context.scheduler().every(this::requestProgress, PROGRESS);
    }

    private void watchFrom(long revision) {
        synchronized (this) {
            if (closed) {
                return;
            }
            long generation = ++watchGeneration;
            WatchOption option = WatchOption.builder()
                    .isPrefix(true)
                    .withNoPut(true)
                    .withProgressNotify(true)
                    .withRevision(revision)
                    .build();
            deletions = watch.watch(
                    keys.namespacePrefix(),
                    option,
                    this::deleted,
                    e -> watchEnded(generation, e),
                    () -> watchEnded(generation, null));
        }
    }

    /** Lists a waiting ticket, so that its key's deletion or its lease's end fails it. */
    void waiting(EtcdTicket ticket) {
        waiting.put(ticket.ownKey(), ticket);
    }

    /** Unlists a ticket that was granted, failed or cancelled. */
    void done(EtcdTicket ticket) {
        waiting.remove(ticket.ownKey(), ticket);
    }

    /** Every grant and ticket on a lease that ended is lost. */
    void leaseDied(EtcdLease lease) {
        for (HeldLease held : context.heldLeases().all()) {
            if (held.attachment(EtcdEntry.class).lease == lease) {
                context.events().lost(held.key(), held.owner(), LossReason.SESSION_LOST);
            }
        }
        waiting.values().forEach(ticket -> ticket.leaseDied(lease));
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
        log.debug(
                "the deletion watch ended ({}); watching again from a fresh look",
                cause == null ? "completed" : EtcdCalls.message(cause));
        context.scheduler().schedule(this::rewatch, REWATCH);
    }

    /** Looks at the namespace, reports what went unseen, and watches from the revision of that look. */
    private void rewatch() {
        kv.get(
                        keys.namespacePrefix(),
                        GetOption.builder().isPrefix(true).withKeysOnly(true).build())
                .whenComplete((r, e) -> {
                    if (e != null) {
                        context.scheduler().schedule(this::rewatch, REWATCH);
                        return;
                    }
                    long revision = r.getHeader().getRevision();
                    Set<ByteSequence> present = new HashSet<>();
                    r.getKvs().forEach(kv -> present.add(kv.getKey()));
                    // a key put after this look is not in it: only keys older than the look can be missing
                    for (HeldLease held : context.heldLeases().all()) {
                        EtcdEntry entry = held.attachment(EtcdEntry.class);
                        if (entry.revision <= revision && !present.contains(entry.ownKey)) {
                            context.events().lost(held.key(), held.owner(), LossReason.OWNERSHIP_LOST);
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
            long deletedAt = event.getKeyValue().getModRevision();
            EtcdTicket ticket = waiting.get(key);
            if (ticket != null && ticket.deletedBy(deletedAt)) {
                ticket.removedBehindItsBack();
            }
            keys.parse(key).ifPresent(own -> {
                for (HeldLease held : context.heldLeases().on(own.lockKey())) {
                    EtcdEntry entry = held.attachment(EtcdEntry.class);
                    if (held.owner().equals(own.owner())
                            && EtcdKeys.Family.of(held.hold().kind()) == own.family()
                            && entry.deletedBy(deletedAt)) {
                        context.events()
                                .lost(
                                        held.key(),
                                        held.owner(),
                                        entry.lease.alive() ? LossReason.OWNERSHIP_LOST : LossReason.SESSION_LOST);
                    }
                }
            });
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
        BackendScheduler.Scheduled p = progress;
        if (p != null) {
            p.cancel();
        }
        waiting.values().forEach(EtcdTicket::cancel);
    }
}
