package io.locksmith.tck;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Held;
import io.locksmith.spi.Grant;
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

/**
 * A small, correct provider for testing the kit, that can be broken in one way at a time. With
 * no breakage it keeps every rule; each {@link Breakage} makes it wrong the way real providers
 * have been wrong, and the kit must notice.
 */
final class ReferenceSubject implements TckSubject {

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
        WAITERS_NEVER_WOKEN
    }

    private final Breakage breakage;
    private final Map<String, Entry> entries = new HashMap<>();
    private final Map<LockClient, Backend> backends = new ConcurrentHashMap<>();
    private long tokens;

    private record Entry(String owner, long token, long expiresAtMillis) {}

    ReferenceSubject(Breakage breakage) {
        this.breakage = breakage;
    }

    @Override
    public String name() {
        return "reference/" + breakage;
    }

    @Override
    public LockClient newClient(LockOptions options) {
        Backend backend = new Backend();
        LockClient client = LockClient.of(events -> backend, options);
        backends.put(client, backend);
        return client;
    }

    @Override
    public Faults faults() {
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                synchronized (ReferenceSubject.this) {
                    entries.remove(key);
                }
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
        };
    }

    /** The server's clock, unless the breakage makes a client's own (skewed) wall clock count. */
    private long now(Backend client) {
        long wall = System.currentTimeMillis();
        return breakage == Breakage.EXPIRY_BY_CLIENT_WALL_CLOCK ? wall + client.clockOffsetMillis : wall;
    }

    private synchronized AcquireResult acquire(Backend client, AcquireRequest r) {
        long now = now(client);
        Entry e = entries.get(r.key());
        if (e != null && e.expiresAtMillis > now) {
            return Held.UNKNOWN;
        }
        long token = breakage == Breakage.TOKEN_NOT_INCREASING ? 1 : ++tokens;
        entries.put(r.key(), new Entry(r.owner(), token, now + r.lease().toMillis()));
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
            entries.put(l.key(), new Entry(l.owner(), e.token, now + l.lease().toMillis()));
        }
        return RenewOutcome.RENEWED;
    }

    private synchronized boolean release(HeldLease l) {
        Entry e = entries.get(l.key());
        if (e != null && (breakage == Breakage.RELEASE_WITHOUT_OWNER_CHECK || e.owner.equals(l.owner()))) {
            entries.remove(l.key());
            return true;
        }
        return false;
    }

    private final class Backend implements LockBackend {
        volatile boolean severed;
        volatile long clockOffsetMillis;

        @Override
        public String description() {
            return "reference://" + breakage;
        }

        @Override
        public AcquireResult tryAcquire(AcquireRequest request) {
            reachable();
            return acquire(this, request);
        }

        @Override
        public List<RenewOutcome> renew(List<HeldLease> leases) {
            reachable();
            List<RenewOutcome> out = new ArrayList<>();
            for (HeldLease l : leases) {
                out.add(ReferenceSubject.this.renew(this, l));
            }
            return out;
        }

        @Override
        public boolean release(HeldLease lease) {
            reachable();
            return ReferenceSubject.this.release(lease);
        }

        @Override
        public Optional<QueuedAcquirer> queue() {
            if (breakage != Breakage.WAITERS_NEVER_WOKEN) {
                return Optional.empty();
            }
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

        private void reachable() {
            if (severed) {
                throw new LockBackendException("reference backend: connection cut");
            }
        }

        @Override
        public void close() {}
    }
}
