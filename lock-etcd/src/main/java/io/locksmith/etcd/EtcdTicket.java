package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Durations;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Hold;
import io.locksmith.spi.QueuedAcquirer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A waiter's place in a lock's queue: its own key, and a watch on its immediate predecessor's
 * deletion only, so a release wakes exactly one waiter. When the predecessor goes, the waiter
 * looks for the next key below its own; when none is left it holds the lock.
 *
 * <p>A writer waits the same way. A reader watches the nearest older writer's key, a semaphore's
 * permit counts deletions below its key (see {@link #permitsAhead}); their grants, and a
 * writer's, are a write that marks the key held, whose revision is the token.
 *
 * <p>Every step that can grant first confirms, on the server and in the same transaction, that
 * the own key is still the one this ticket put: the watches are a fast path, never the guard.
 * The ticket fails (and the core may queue again) when its key is gone, its lease ended, or etcd
 * stayed unanswering for as long as the lease.
 */
final class EtcdTicket implements QueuedAcquirer.Ticket {

    private static final Duration RETRY = Duration.ofMillis(250);

    private final AcquireRequest request;
    private final EtcdEntry entry;
    private final EtcdBackend backend;
    private final KV kv;
    private final CompletableFuture<Grant> granted = new CompletableFuture<>();
    private Watch.Watcher watcher;
    private boolean done;
    /** When the current run of failed calls began (the client's ticker), while {@link #failing}. */
    private long failingSinceNanos;

    private boolean failing;

    EtcdTicket(AcquireRequest request, EtcdEntry entry, EtcdBackend backend) {
        this.request = request;
        this.entry = entry;
        this.backend = backend;
        this.kv = backend.client().getKVClient();
    }

    /** @return a ticket that could not even queue: its grant fails at once with {@code failure} */
    static QueuedAcquirer.Ticket failed(LockBackendException failure) {
        CompletableFuture<Grant> grant = CompletableFuture.failedFuture(failure);
        return new QueuedAcquirer.Ticket() {
            @Override
            public CompletableFuture<Grant> granted() {
                return grant;
            }

            @Override
            public void cancel() {}
        };
    }

    @Override
    public CompletableFuture<Grant> granted() {
        return granted;
    }

    /**
     * Finds the keys just below ours, in one transaction that first checks that our own key is
     * still the one we put (same create revision): a key deleted by an operator or expired with
     * its lease must never be granted, whatever the watches missed. None below means the lock is ours.
     */
    void follow() {
        synchronized (this) {
            if (done) {
                return;
            }
        }
        Hold.Kind kind = request.hold().kind();
        // a lock and a writer need the nearest key below (two, not one: a range's count ignores
        // the create-revision filter, the number of keys listed does not); a reader needs every
        // key below, with values, for the nearest writer; a permit every key below, to count them
        GetOption.Builder below = GetOption.builder()
                .isPrefix(true)
                .withKeysOnly(kind != Hold.Kind.READ)
                .withMaxCreateRevision(entry.revision - 1)
                .withSortField(GetOption.SortTarget.CREATE)
                .withSortOrder(GetOption.SortOrder.DESCEND);
        if (kind == Hold.Kind.EXCLUSIVE || kind == Hold.Kind.WRITE) {
            below.withLimit(2);
        }
        ByteSequence prefix = backend.keys().prefix(kind, request.key());
        kv.txn().If(ownKeyIsMine()).Then(Op.get(prefix, below.build())).commit().whenComplete((response, failure) -> {
            if (failure != null) {
                retryLater(failure);
            } else if (!response.isSucceeded()) {
                ownKeyGone();
            } else {
                answered();
                long revision = response.getHeader().getRevision();
                List<KeyValue> keys = response.getGetResponses().get(0).getKvs();
                switch (kind) {
                    case EXCLUSIVE, WRITE -> predecessor(revision, keys);
                    case READ -> nearestWriter(revision, keys);
                    case PERMIT -> permitsAhead(revision, prefix, keys);
                }
            }
        });
    }

    /**
     * A reader waits for the nearest older writer only: readers between it and that writer hold
     * already or wait for the same writer, and a writer further below goes before that one.
     */
    private void nearestWriter(long revision, List<KeyValue> below) {
        Optional<KeyValue> writer = below.stream().filter(EtcdShares::writer).findFirst();
        if (writer.isEmpty()) {
            grant();
        } else {
            watchDeletion(writer.get().getKey(), revision, false);
        }
    }

    /**
     * A permit of {@code n} with {@code c} keys below holds once {@code c - n + 1} of them are
     * gone, whichever they are: it watches the semaphore's prefix and counts those deletions, and
     * reads the queue again only when the count says it may hold. Every waiter of the semaphore
     * sees every deletion (etcd sends the event once per watch); none makes a call for it until
     * its count is reached, so a release costs one range per waiter it can let go, not per waiter.
     */
    private void permitsAhead(long revision, ByteSequence prefix, List<KeyValue> below) {
        int needed = below.size() - request.hold().permits() + 1;
        if (needed <= 0) {
            grant();
            return;
        }
        Set<ByteSequence> ahead = ConcurrentHashMap.newKeySet();
        below.forEach(kv -> ahead.add(kv.getKey()));
        AtomicInteger gone = new AtomicInteger();
        WatchOption option = WatchOption.builder()
                .isPrefix(true)
                .withNoPut(true)
                .withRevision(revision + 1)
                .build();
        synchronized (this) {
            if (done) {
                return;
            }
            closeWatcher();
            watcher = backend.client()
                    .getWatchClient()
                    .watch(
                            prefix,
                            option,
                            r -> {
                                for (WatchEvent event : r.getEvents()) {
                                    if (event.getEventType() == WatchEvent.EventType.DELETE
                                            && ahead.remove(event.getKeyValue().getKey())
                                            && gone.incrementAndGet() == needed) {
                                        predecessorGone(false);
                                        return;
                                    }
                                }
                            },
                            this::retryLater);
        }
    }

    private Cmp ownKeyIsMine() {
        return new Cmp(entry.ownKey, Cmp.Op.EQUAL, CmpTarget.createRevision(entry.revision));
    }

    private void predecessor(long revision, List<KeyValue> below) {
        if (below.isEmpty()) {
            grant();
            return;
        }
        // no key can later appear below ours (revisions only grow): if the predecessor is the only
        // one, its deletion makes us the holder once our own key is confirmed, without another range
        watchDeletion(below.get(0).getKey(), revision, below.size() == 1);
    }

    /** Watches one key's deletion; {@code last}: the deletion makes us the holder. */
    private void watchDeletion(ByteSequence key, long revision, boolean last) {
        WatchOption option =
                WatchOption.builder().withNoPut(true).withRevision(revision + 1).build();
        synchronized (this) {
            if (done) {
                return;
            }
            closeWatcher();
            watcher = backend.client()
                    .getWatchClient()
                    .watch(
                            key,
                            option,
                            r -> {
                                for (WatchEvent event : r.getEvents()) {
                                    if (event.getEventType() == WatchEvent.EventType.DELETE) {
                                        predecessorGone(last);
                                        return;
                                    }
                                }
                            },
                            this::retryLater);
        }
    }

    private void predecessorGone(boolean last) {
        synchronized (this) {
            closeWatcher();
        }
        if (!last) {
            follow();
            return;
        }
        if (request.hold().kind() != Hold.Kind.EXCLUSIVE) {
            grant(); // the grant's own write confirms the key
            return;
        }
        kv.txn().If(ownKeyIsMine()).commit().whenComplete((response, failure) -> {
            if (failure != null) {
                retryLater(failure);
            } else if (response.isSucceeded()) {
                grant();
            } else {
                ownKeyGone();
            }
        });
    }

    private void ownKeyGone() {
        fail("its place in the queue (its etcd key) is gone: deleted by someone else, or expired with its lease");
    }

    private synchronized void answered() {
        failing = false;
    }

    /**
     * Looks again after a failed call or a watch that ended (jetcd ends a watch whose revision was
     * compacted). The key stays queued while etcd is briefly away; once the failures have lasted as
     * long as the lease, the ticket fails and the core decides whether to queue again.
     */
    private void retryLater(Throwable failure) {
        long now = backend.context().ticker().nanoTime();
        boolean givingUp;
        synchronized (this) {
            if (done) {
                return;
            }
            closeWatcher();
            if (!failing) {
                failing = true;
                failingSinceNanos = now;
            }
            givingUp = now - failingSinceNanos > request.lease().toNanos();
        }
        if (givingUp) {
            fail("etcd did not answer for as long as the lease (" + Durations.format(request.lease()) + "): "
                    + EtcdCalls.message(failure));
            return;
        }
        backend.context().scheduler().schedule(this::follow, RETRY); // nothing runs once the client is closed
    }

    void grant() {
        if (request.hold().kind() == Hold.Kind.EXCLUSIVE) {
            granted(entry.revision);
            return;
        }
        synchronized (this) {
            if (done) {
                return;
            }
            closeWatcher();
        }
        // a shared grant's token is the revision of a write made now: queue order is not grant order
        backend.shared().markHeld(entry).whenComplete((response, failure) -> {
            if (failure != null) {
                retryLater(failure);
            } else if (response.isSucceeded()) {
                granted(response.getHeader().getRevision());
            } else {
                ownKeyGone();
            }
        });
    }

    /** Hands out the grant with its token. */
    void granted(long token) {
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
            closeWatcher();
        }
        backend.deletions().done(this);
        // the lease was kept alive while the key queued: its server deadline rests on the last
        // keep-alive it answered, sent before this grant arrived, never on the arrival
        if (!granted.complete(new Grant(token, entry).confirmedAt(entry.lease.confirmedAt()))) {
            backend.orphans().deleteLater(entry); // the future was ended from outside: nobody will release the grant
        }
    }

    long revision() {
        return entry.revision;
    }

    boolean deletedBy(long deletedAt) {
        return entry.deletedBy(deletedAt);
    }

    ByteSequence ownKey() {
        return entry.ownKey;
    }

    void removedBehindItsBack() {
        fail("its place in the queue (its etcd key) was deleted by someone else");
    }

    void leaseDied(EtcdLease lease) {
        if (entry.lease == lease) {
            fail("the cluster no longer knows its etcd lease " + lease + " (it expired or was revoked)");
        }
    }

    private void fail(String why) {
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
            closeWatcher();
        }
        backend.deletions().done(this);
        backend.orphans().orphan(entry.ownKey);
        granted.completeExceptionally(new LockBackendException(
                "waiting for lock '" + request.name() + "' on " + backend.description() + " failed: " + why));
    }

    @Override
    public void cancel() {
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
            closeWatcher();
        }
        backend.deletions().done(this);
        granted.cancel(false);
        backend.orphans().deleteLater(entry);
    }

    private void closeWatcher() {
        if (watcher != null) {
            watcher.close();
            watcher = null;
        }
    }
}
