package io.locksmith.tck;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A small, correct provider for testing the kit, that can be broken in one way at a time. With
 * no breakage it keeps every rule; each {@link Breakage} makes it wrong the way real providers
 * have been wrong, and the kit must notice. It polls by default; queued, it keeps a FIFO queue of
 * waiters as etcd and ZooKeeper do ({@link ReferenceQueue}).
 */
final class ReferenceSubject implements TckSubject {

    /** The origin of the server's clock, so that its milliseconds start near zero. */
    private static final long EPOCH_NANOS = System.nanoTime();

    /** One way to be wrong. */
    enum Breakage {
        NONE,
        /** Release deletes the key whoever owns it. */
        RELEASE_WITHOUT_OWNER_CHECK,
        /** Every grant carries the same token. */
        TOKEN_NOT_INCREASING,
        /** Renewal answers "renewed" but extends nothing. */
        RENEWAL_NEVER_RUNS,
        /** Expiry is judged by the client's wall clock, not the server's. */
        EXPIRY_BY_CLIENT_WALL_CLOCK,
        /** Renewal answers "renewed" even when the key is gone or another owner's: loss is never reported. */
        LOSS_NEVER_REPORTED,
        /** Claims a native queue whose waiters are never granted. */
        WAITERS_NEVER_WOKEN,
        /** Renewal restarts a lease for the length it was granted with, not the one asked (Azure's renew). */
        RENEW_KEEPS_ORIGINAL_LEASE,
        /** Renewal on a cut connection answers "not owned": any connection error loses the lock. */
        LOSES_ON_CONNECTION_ERROR,
        /** An unreachable server fails an attempt with an IllegalStateException, which ends the wait. */
        UNREACHABLE_ENDS_THE_WAIT,
        /** A restart resets the token counter. */
        RESTART_RESETS_TOKENS,
        /** abandon() does nothing: an attempt whose answer came too late holds the lock for its lease. */
        ABANDON_DOES_NOTHING,
        /** Queued: a grant says its lease was confirmed when the grant's reply arrived, not when it was made. */
        QUEUED_GRANT_CONFIRMED_AT_REPLY,
        /** Queued: a waiter whose entry was removed is still granted when the lock frees, without an entry. */
        GRANTS_A_REMOVED_WAITER,
        /** Queued: a cancelled ticket leaves its entry, which is granted to nobody and holds the lock a lease. */
        CANCEL_LEAVES_QUEUE_ENTRY;

        boolean queued() {
            return this == QUEUED_GRANT_CONFIRMED_AT_REPLY
                    || this == GRANTS_A_REMOVED_WAITER
                    || this == CANCEL_LEAVES_QUEUE_ENTRY;
        }
    }

    private final Breakage breakage;
    private final boolean queued;
    private final Map<String, Entry> entries = new HashMap<>();
    private final Map<LockClient, Backend> backends = new ConcurrentHashMap<>();
    private final ReferenceQueue queue;
    private long tokens;

    /** A held key: its owner, token, expiry by the server's clock and the lease it was granted for. */
    record Entry(String owner, long token, long expiresAtMillis, long grantedLeaseMillis) {}

    ReferenceSubject(Breakage breakage) {
        this(breakage, breakage.queued());
    }

    ReferenceSubject(Breakage breakage, boolean queued) {
        this.breakage = breakage;
        this.queued = queued;
        this.queue = queued ? new ReferenceQueue(this, breakage) : null;
    }

    @Override
    public String name() {
        return "reference/" + breakage + (queued && !breakage.queued() ? "/queued" : "");
    }

    @Override
    public LockClient newClient(LockOptions options) {
        Backend backend = new Backend();
        LockClient client = LockClient.of(context -> backend, options);
        backends.put(client, backend);
        return client;
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder().fifo(queued).build();
    }

    @Override
    public Faults faults() {
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                synchronized (ReferenceSubject.this) {
                    entries.remove(key);
                }
                freed(key);
            }

            @Override
            public void cutConnection(LockClient client) {
                backends.get(client).severed = true;
            }

            @Override
            public void restoreConnection(LockClient client) {
                backends.get(client).severed = false;
            }

            @Override
            public void skewWallClock(LockClient client, Duration offset) {
                backends.get(client).clockOffsetMillis = offset.toMillis();
            }

            @Override
            public void restartServer() {
                synchronized (ReferenceSubject.this) {
                    entries.clear();
                    if (breakage == Breakage.RESTART_RESETS_TOKENS) {
                        tokens = 0;
                    }
                }
                if (queue != null) {
                    queue.restart();
                }
            }

            @Override
            public void delayReplies(LockClient client, Duration delay) {
                backends.get(client).replyDelayNanos = delay.toNanos();
            }

            @Override
            public void removeQueueEntries(String key) {
                if (queue == null) {
                    throw new UnsupportedOperationException("the polling reference keeps no queue");
                }
                queue.removeEntries(key);
            }
        };
    }

    @Override
    public void close() {
        if (queue != null) {
            queue.close();
        }
    }

    /**
     * The server's clock in milliseconds, unless the breakage makes a client's own (skewed) clock
     * count. A monotonic clock, as a server's lease clock should be: the rules measure leases with
     * {@link System#nanoTime()}, and a wall clock that a busy host steps by a few milliseconds
     * would end a lease early by that much in the rules' eyes.
     */
    private long now(Backend client) {
        long server = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - EPOCH_NANOS);
        return breakage == Breakage.EXPIRY_BY_CLIENT_WALL_CLOCK && client != null
                ? server + client.clockOffsetMillis
                : server;
    }

    synchronized boolean isFree(String key) {
        Entry e = entries.get(key);
        return e == null || e.expiresAtMillis <= now(null);
    }

    /** Takes a free key for an owner; the caller checked that it is free. */
    synchronized long take(String key, String owner, Duration lease) {
        long token = breakage == Breakage.TOKEN_NOT_INCREASING ? 1 : ++tokens;
        entries.put(key, new Entry(owner, token, now(null) + lease.toMillis(), lease.toMillis()));
        return token;
    }

    /** @return a token for a grant made without an entry, as a broken queue does */
    synchronized long tokenWithoutEntry() {
        return ++tokens;
    }

    private AcquireResult acquire(Backend client, AcquireRequest r) {
        if (queue != null && queue.hasWaiters(r.key())) {
            return Held
                    .UNKNOWN; // waiters are served first; asked outside this lock, which the queue takes inside its own
        }
        return take(client, r);
    }

    private synchronized AcquireResult take(Backend client, AcquireRequest r) {
        long now = now(client);
        Entry e = entries.get(r.key());
        if (e != null && e.expiresAtMillis > now) {
            if (!e.owner.equals(r.owner())) {
                return Held.UNKNOWN;
            }
            // the same wait's earlier attempt took effect: its grant, with the lease restarted
            entries.put(r.key(), new Entry(r.owner(), e.token, now + r.lease().toMillis(), e.grantedLeaseMillis));
            return Grant.of(e.token);
        }
        long token = breakage == Breakage.TOKEN_NOT_INCREASING ? 1 : ++tokens;
        entries.put(
                r.key(),
                new Entry(
                        r.owner(), token, now + r.lease().toMillis(), r.lease().toMillis()));
        return Grant.of(token);
    }

    private synchronized RenewOutcome renew(Backend client, HeldLease l) {
        long now = now(client);
        Entry e = entries.get(l.key());
        boolean owned = e != null && e.owner.equals(l.owner()) && e.expiresAtMillis > now;
        if (!owned) {
            return breakage == Breakage.LOSS_NEVER_REPORTED ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED;
        }
        if (breakage != Breakage.RENEWAL_NEVER_RUNS) {
            long lease = breakage == Breakage.RENEW_KEEPS_ORIGINAL_LEASE
                    ? e.grantedLeaseMillis
                    : l.lease().toMillis();
            entries.put(l.key(), new Entry(l.owner(), e.token, now + lease, e.grantedLeaseMillis));
        }
        return RenewOutcome.RENEWED;
    }

    private boolean release(HeldLease l) {
        boolean released;
        synchronized (this) {
            Entry e = entries.get(l.key());
            released = e != null && (breakage == Breakage.RELEASE_WITHOUT_OWNER_CHECK || e.owner.equals(l.owner()));
            if (released) {
                entries.remove(l.key());
            }
        }
        if (released) {
            freed(l.key());
        }
        return released;
    }

    private void abandon(AcquireRequest r) {
        if (breakage == Breakage.ABANDON_DOES_NOTHING) {
            return;
        }
        boolean removed;
        synchronized (this) {
            Entry e = entries.get(r.key());
            removed = e != null && e.owner.equals(r.owner());
            if (removed) {
                entries.remove(r.key());
            }
        }
        if (removed) {
            freed(r.key());
        }
    }

    private void freed(String key) {
        if (queue != null) {
            queue.dispatch(key);
        }
    }

    /** One client's connection: it can be cut, and its replies delayed. */
    final class Backend implements LockBackend {
        volatile boolean severed;
        volatile long clockOffsetMillis;
        volatile long replyDelayNanos;

        @Override
        public String description() {
            return "reference://" + breakage;
        }

        @Override
        public AcquireResult tryAcquire(AcquireRequest request) {
            reachableToAcquire();
            return reply(acquire(this, request));
        }

        @Override
        public List<RenewOutcome> renew(List<HeldLease> leases) {
            if (severed && breakage == Breakage.LOSES_ON_CONNECTION_ERROR) {
                return java.util.Collections.nCopies(leases.size(), RenewOutcome.NOT_OWNED);
            }
            reachable();
            List<RenewOutcome> out = new ArrayList<>();
            for (HeldLease l : leases) {
                out.add(ReferenceSubject.this.renew(this, l));
            }
            return reply(out);
        }

        @Override
        public boolean release(HeldLease lease) {
            reachable();
            return reply(ReferenceSubject.this.release(lease));
        }

        @Override
        public void abandon(AcquireRequest request) {
            reachable();
            ReferenceSubject.this.abandon(request);
            reply(null);
        }

        @Override
        public Optional<QueuedAcquirer> queue() {
            if (breakage == Breakage.WAITERS_NEVER_WOKEN) {
                return Optional.of(request -> new QueuedAcquirer.Ticket() {
                    private final CompletableFuture<Grant> never = new CompletableFuture<>();

                    @Override
                    public CompletableFuture<Grant> granted() {
                        return never;
                    }

                    @Override
                    public void cancel() {}
                });
            }
            if (queue == null) {
                return Optional.empty();
            }
            return Optional.of(request -> {
                reachableToAcquire();
                return reply(queue.enqueue(this, request));
            });
        }

        void reachable() {
            if (severed) {
                throw new LockBackendException("reference backend: connection cut");
            }
        }

        private void reachableToAcquire() {
            if (severed && breakage == Breakage.UNREACHABLE_ENDS_THE_WAIT) {
                throw new IllegalStateException("reference backend: connection cut");
            }
            reachable();
        }

        /** Hands back the server's answer once the reply delay has passed: the server acted, the client learns late. */
        <T> T reply(T answer) {
            long due = System.nanoTime() + replyDelayNanos;
            for (long left; (left = due - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(left);
            }
            return answer;
        }

        @Override
        public void close() {}
    }
}
