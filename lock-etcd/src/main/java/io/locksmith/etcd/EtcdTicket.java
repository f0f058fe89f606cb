package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.locksmith.LockBackendException;
import io.locksmith.spi.Grant;
import io.locksmith.spi.QueuedAcquirer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A waiter's place in a lock's queue: its own key, and a watch on its immediate predecessor's
 * deletion only, so a release wakes exactly one waiter. When the predecessor goes, the waiter
 * looks for the next key below its own; when none is left it holds the lock.
 */
final class EtcdTicket implements QueuedAcquirer.Ticket {

    private static final long RETRY_MILLIS = 250;

    private final EtcdEntry entry;
    private final ByteSequence lockPrefix;
    private final KV kv;
    private final Watch watch;
    private final EtcdRegistry registry;
    private final String description;
    private final CompletableFuture<Grant> granted = new CompletableFuture<>();
    private Watch.Watcher watcher;
    private boolean done;

    EtcdTicket(EtcdEntry entry, ByteSequence lockPrefix, KV kv, Watch watch, EtcdRegistry registry, String description) {
        this.entry = entry;
        this.lockPrefix = lockPrefix;
        this.kv = kv;
        this.watch = watch;
        this.registry = registry;
        this.description = description;
    }

    @Override
    public CompletableFuture<Grant> granted() {
        return granted;
    }

    /** Finds the key just below ours; none means the lock is ours. */
    void follow() {
        synchronized (this) {
            if (done) {
                return;
            }
        }
        GetOption below = GetOption.builder().isPrefix(true).withKeysOnly(true).withLimit(1)
                .withMaxCreateRevision(entry.revision - 1)
                .withSortField(GetOption.SortTarget.CREATE).withSortOrder(GetOption.SortOrder.DESCEND).build();
        kv.get(lockPrefix, below).whenComplete((response, failure) -> {
            if (failure != null) {
                retryLater();
            } else {
                predecessor(response);
            }
        });
    }

    private void predecessor(GetResponse response) {
        if (response.getKvs().isEmpty()) {
            grant();
            return;
        }
        KeyValue predecessor = response.getKvs().get(0);
        // no key can later appear below ours (revisions only grow): if the predecessor is the only
        // one, its deletion makes us the holder without another look
        boolean last = response.getCount() == 1;
        WatchOption option = WatchOption.builder().withNoPut(true)
                .withRevision(response.getHeader().getRevision() + 1).build();
        synchronized (this) {
            if (done) {
                return;
            }
            closeWatcher();
            watcher = watch.watch(predecessor.getKey(), option, r -> {
                for (WatchEvent event : r.getEvents()) {
                    if (event.getEventType() == WatchEvent.EventType.DELETE) {
                        predecessorGone(last);
                        return;
                    }
                }
            }, e -> retryLater());
        }
    }

    private void predecessorGone(boolean last) {
        synchronized (this) {
            closeWatcher();
        }
        if (last) {
            grant();
        } else {
            follow();
        }
    }

    private void retryLater() {
        synchronized (this) {
            if (done) {
                return;
            }
            closeWatcher();
        }
        try {
            registry.timer().schedule(this::follow, RETRY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            fail("the lock client is closed");
        }
    }

    void grant() {
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
            closeWatcher();
        }
        registry.waiting.remove(entry.ownKey, this);
        entry.keepFrom(System.nanoTime(), entry.leaseMillis);
        registry.held.put(entry.ownKey, entry);
        if (!granted.complete(new Grant(entry.revision, entry))) {
            registry.held.remove(entry.ownKey, entry); // cancelled meanwhile: the core releases it
        }
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
        registry.waiting.remove(entry.ownKey, this);
        registry.orphan(entry.ownKey);
        granted.completeExceptionally(new LockBackendException("waiting for lock '" + entry.name + "' on "
                + description + " failed: " + why));
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
        registry.waiting.remove(entry.ownKey, this);
        granted.cancel(false);
        registry.deleteIfSame(entry.ownKey, entry.revision).whenComplete((ok, e) -> {
            if (e != null) {
                registry.orphan(entry.ownKey);
            }
        });
    }

    private void closeWatcher() {
        if (watcher != null) {
            watcher.close();
            watcher = null;
        }
    }
}
