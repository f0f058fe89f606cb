package io.locksmith.tck;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.Grant;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.QueuedAcquirer;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A sound connection with a native FIFO queue on the {@link MemoryServer}: a waiter's entry joins
 * the key's queue, and the ticket asks every 2 ms whether its entry heads the queue and the key is
 * free (a backend's watch, simplified). A ticket whose connection is cut fails, as a real one
 * does, and the core enqueues again. The two queue flaws read the queue from the back, or leave a
 * cancelled entry in it.
 */
final class QueuedBackend extends ForwardingLockBackend implements QueuedAcquirer {

    private static final long POLL_MILLIS = 2;

    private final MemoryBackend sound;
    private final boolean fromTheBack;
    private final boolean cancelLeavesEntry;
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "queue watch");
        t.setDaemon(true);
        return t;
    });

    QueuedBackend(MemoryBackend sound, boolean fromTheBack, boolean cancelLeavesEntry) {
        super(sound);
        this.sound = sound;
        this.fromTheBack = fromTheBack;
        this.cancelLeavesEntry = cancelLeavesEntry;
    }

    @Override
    public Optional<QueuedAcquirer> queue() {
        return Optional.of(this);
    }

    /** Locks only: its queue grants one holder at a time, which a semaphore's or a reader's entry is not. */
    @Override
    public java.util.Set<io.locksmith.spi.Hold.Kind> holds() {
        return java.util.Set.of(io.locksmith.spi.Hold.Kind.EXCLUSIVE);
    }

    @Override
    public Ticket enqueue(AcquireRequest request) {
        sound.reachable(request.name());
        String entry = UUID.randomUUID().toString();
        sound.server().join(request.key(), entry);
        return new Watch(request, entry);
    }

    @Override
    public void close() {
        watcher.shutdownNow();
        super.close();
    }

    /** One queued entry, watched until it is granted, fails or is cancelled. */
    private final class Watch implements Ticket {
        private final AcquireRequest request;
        private final String entry;
        private final CompletableFuture<Grant> granted = new CompletableFuture<>();
        private final ScheduledFuture<?> polling;

        Watch(AcquireRequest request, String entry) {
            this.request = request;
            this.entry = entry;
            this.polling = watcher.scheduleWithFixedDelay(this::poll, 0, POLL_MILLIS, TimeUnit.MILLISECONDS);
            granted.whenComplete((g, e) -> polling.cancel(false));
        }

        private void poll() {
            long sent = sound.ticker().nanoTime();
            try {
                sound.reachable(request.name());
                if (!sound.server().queued(request.key(), entry)) {
                    throw new LockBackendException(
                            description() + ": the queue entry for lock '" + request.name() + "' is gone");
                }
                if (sound.server().acquireAsHead(request, entry, fromTheBack) instanceof Grant g) {
                    granted.complete(sound.replied(g.confirmedAt(sent))); // the grant's way back is delayed too
                }
            } catch (LockBackendException e) {
                granted.completeExceptionally(e);
            }
        }

        @Override
        public CompletableFuture<Grant> granted() {
            return granted;
        }

        @Override
        public void cancel() {
            polling.cancel(false);
            if (!cancelLeavesEntry) {
                sound.server().leave(request.key(), entry);
                // an entry granted on the server whose answer had not come back is ours to free,
                // as deleting its own key or node does on etcd and ZooKeeper
                sound.server().release(HeldLease.of(request, Grant.of(0)));
            }
        }
    }
}
