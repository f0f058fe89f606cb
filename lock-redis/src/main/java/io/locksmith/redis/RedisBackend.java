package io.locksmith.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.Redaction;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import io.locksmith.spi.Ticker;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Locks in Redis: each primitive is one script call, so ownership checks and changes are atomic
 * on the server, and leases are kept by the server's key expiry. Semaphores and read-write locks
 * ({@link RedisSharedHolds}) keep their leases by the server's clock inside their scripts.
 *
 * <p>A lock keeps its waiters in a queue beside it, in its slot: a waiting request that is
 * refused takes a place (kept for {@link RedisSettings#presence()} from its latest attempt), a
 * free key goes only to the first live waiter, and a release names that waiter on its client's
 * wake channel (or, for a waiter that recorded none, on the key's channel), which
 * {@link RedisSignals} reports as {@link BackendEvents#released(String, String)}.
 *
 * <p>A release grants the key to the first waiter itself when that waiter's client listens on a
 * wake channel: the key holds the waiter's grant for a short handoff lease (at most the
 * presence), and the message tells the client the token. The waiter's next attempt is then that
 * grant, without a round trip, dated from the waiter's last refused attempt (sent before the
 * release ran) and shortened by what its lease lacks of the handoff lease, so that the core
 * renews it at once. A message read after an attempt that was refused under that token or a later
 * one is stale (the grant ran out meanwhile) and is dropped.
 */
final class RedisBackend implements LockBackend {

    private final RedisLink link;
    private final RedisSignals signals;
    private final String description;
    private final int replicas;
    private final long replicaTimeoutMillis;
    private final String presenceMillis;
    private final RedisRenewal renewal;
    private final RedisSharedHolds shared;
    private final Ticker ticker;
    private final long presenceNanos;
    private final ConcurrentHashMap<String, Waiter> waiters = new ConcurrentHashMap<>(); // by owner

    /**
     * @param link the connections
     * @param description the server, credentials masked, for messages
     * @param settings the replicas to wait for
     * @param events where release signals go
     * @param ticker the client's clock, for the time a release's grant is dated from
     */
    RedisBackend(RedisLink link, String description, RedisSettings settings, BackendEvents events, Ticker ticker) {
        this.link = link;
        this.renewal = new RedisRenewal(link, description);
        this.shared = new RedisSharedHolds(link, description);
        this.ticker = ticker;
        this.presenceNanos = settings.presence().toNanos();
        this.signals = new RedisSignals(link::openPubSub, description, link.timeout(), events, this::granted);
        this.description = description;
        this.replicas = settings.replicas();
        this.replicaTimeoutMillis = settings.replicaTimeout().toMillis();
        this.presenceMillis = Long.toString(settings.presence().toMillis());
    }

    @Override
    public String description() {
        return description;
    }

    /** Leases are PX expiries: millisecond precision; shorter than 10 ms is not a lease. */
    @Override
    public Duration minimumLease() {
        return Duration.ofMillis(10);
    }

    @Override
    public Set<Hold.Kind> holds() {
        return EnumSet.allOf(Hold.Kind.class);
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        if (request.hold().kind() != Hold.Kind.EXCLUSIVE) {
            AcquireResult result = shared.tryAcquire(request);
            if (replicas > 0 && result instanceof Grant grant) {
                awaitReplicas(request, grant.token());
            }
            return result;
        }
        String key = request.key();
        Waiter waiter = request.waits() ? waiters.get(request.owner()) : null;
        if (waiter != null) {
            Grant handed = waiter.take(request);
            if (handed != null) {
                waiters.remove(request.owner(), waiter);
                return handed;
            }
        }
        long sent = ticker.nanoTime();
        List<Long> answer = call(
                request.name(),
                "acquire",
                () -> RedisScript.ACQUIRE.run(
                        link.scripts(),
                        ScriptOutputType.MULTI,
                        new String[] {
                            RedisKeys.lock(key),
                            RedisKeys.fence(key),
                            RedisKeys.queue(key),
                            RedisKeys.presence(key),
                            RedisKeys.wake(key)
                        },
                        request.owner(),
                        Long.toString(request.lease().toMillis()),
                        request.waits() ? "1" : "0",
                        presenceMillis,
                        RedisKeys.channel(key),
                        request.waits() ? signals.wakeChannel() : "",
                        key,
                        replicas > 0 ? "0" : Long.toString(handoffNanos(request) / 1_000_000)));
        long first = answer.get(0);
        if (first < 0) {
            if (request.waits()) {
                waiters.computeIfAbsent(request.owner(), o -> new Waiter(key)).refused(sent, answer.get(1));
            }
            return Held.remaining(Duration.ofMillis(-1 - first));
        }
        if (waiter != null || request.waits()) {
            waiters.remove(request.owner());
        }
        if (replicas > 0) {
            awaitReplicas(request, first);
        }
        return Grant.of(first);
    }

    /** How long a key a release grants this waiter lasts before its client renews it. */
    private long handoffNanos(AcquireRequest request) {
        return Math.min(request.lease().toNanos(), presenceNanos);
    }

    /**
     * A release granted a waiter of this client the key (its wake channel said so); the waiter's
     * next attempt takes the grant.
     */
    void granted(String key, String owner, long token) {
        Waiter waiter = waiters.get(owner);
        if (waiter != null && waiter.key.equals(key)) {
            waiter.offered(token);
        }
    }

    /**
     * A waiting acquisition of this client: when its latest refused attempt was sent, the newest
     * token it was refused under, and a grant a release made it, if one was heard of.
     */
    private final class Waiter {
        final String key;
        private long refusedSentNanos; // guarded by this
        private long newestRefusedToken; // guarded by this
        private long offered; // guarded by this; 0 if none

        Waiter(String key) {
            this.key = key;
        }

        synchronized void refused(long sentNanos, long fence) {
            refusedSentNanos = sentNanos;
            newestRefusedToken = Math.max(newestRefusedToken, fence);
        }

        synchronized void offered(long token) {
            offered = Math.max(offered, token);
        }

        /**
         * @return the grant a release made, dated from the latest refused attempt's sending (which
         *     the server ran before the release, as it refused it under an older token) and less
         *     what its lease lacks of the handoff lease; or {@code null} if none, or a stale one
         */
        synchronized Grant take(AcquireRequest request) {
            if (offered <= newestRefusedToken) {
                return null; // none, or one that ran out before an attempt the waiter was refused
            }
            long shortBy = request.lease().toNanos() - handoffNanos(request);
            return Grant.of(offered).confirmedAt(refusedSentNanos - shortBy);
        }
    }

    private void awaitReplicas(AcquireRequest request, long token) {
        long acknowledged =
                call(request.name(), "wait for replicas", () -> link.waitForReplicas(replicas, replicaTimeoutMillis));
        if (acknowledged < replicas) {
            release(HeldLease.of(request, Grant.of(token)));
            throw new LockBackendException("lock '" + request.name() + "' on " + description + " was granted but only "
                    + acknowledged + " of " + replicas + " replicas acknowledged it within " + replicaTimeoutMillis
                    + " ms; it was released again");
        }
    }

    /** One script call for all leases; on a Cluster one per slot, each failing only its own leases. */
    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        return renewal.renew(leases);
    }

    @Override
    public boolean release(HeldLease lease) {
        if (lease.hold().kind() != Hold.Kind.EXCLUSIVE) {
            return shared.release(lease);
        }
        String key = lease.key();
        Long released = callRepeatable(
                lease.name(),
                "release",
                () -> whileSlotMoves(
                        keys -> RedisScript.RELEASE.<Long>run(
                                link.scripts(),
                                ScriptOutputType.INTEGER,
                                keys,
                                RedisKeys.value(lease.token(), lease.owner()),
                                RedisKeys.channel(key),
                                key),
                        key));
        return released == 1L;
    }

    /**
     * Removes the key if the given-up attempt's owner holds it, under whatever token (an EVALSHA
     * that timed out on the client may still have run on the server), and the owner's place in the
     * queue (its wait ended); wakes the next waiter if the key is free and was owed to this owner.
     */
    @Override
    public void abandon(AcquireRequest request) {
        if (request.hold().kind() != Hold.Kind.EXCLUSIVE) {
            shared.abandon(request);
            return;
        }
        waiters.remove(request.owner());
        String key = request.key();
        callRepeatable(
                request.name(),
                "abandon",
                () -> whileSlotMoves(
                        keys -> RedisScript.ABANDON.<Long>run(
                                link.scripts(),
                                ScriptOutputType.INTEGER,
                                keys,
                                request.owner(),
                                RedisKeys.channel(key),
                                key),
                        key));
    }

    /**
     * Runs release.lua or abandon.lua with the lock, its queue's three keys and its fence counter;
     * if a Cluster refuses that with {@code TRYAGAIN} (the slot migrates and the keys are not all on
     * one node: nobody waits, so the queue's keys are absent while the lock key is present), once
     * more with the lock key alone, which a migrating slot's owner or its importing node always
     * serves.
     */
    private Long whileSlotMoves(Function<String[], Long> script, String key) {
        try {
            return script.apply(new String[] {
                RedisKeys.lock(key),
                RedisKeys.queue(key),
                RedisKeys.presence(key),
                RedisKeys.wake(key),
                RedisKeys.fence(key)
            });
        } catch (RedisCommandExecutionException e) {
            if (!link.cluster() || !RedisLink.slotMoving(e)) {
                throw e;
            }
            return script.apply(new String[] {RedisKeys.lock(key)});
        }
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return Optional.of(signals);
    }

    /**
     * Reads the lock key's {@code TOKEN:OWNER} and its {@code PTTL}, two commands, no script; a
     * semaphore's or read-write lock's holders with one read-only script.
     */
    @Override
    public Optional<LockInspector> inspector() {
        return Optional.of(new LockInspector() {
            @Override
            public Optional<HolderState> inspect(String key) {
                return call(key, "inspect", () -> {
                    String value = link.get(RedisKeys.lock(key));
                    if (value == null) {
                        return Optional.<HolderState>empty();
                    }
                    Long ttl = link.pttl(RedisKeys.lock(key));
                    int colon = value.indexOf(':');
                    return Optional.of(new HolderState(
                            value.substring(colon + 1),
                            Long.parseLong(value.substring(0, colon)),
                            ttl != null && ttl >= 0 ? Duration.ofMillis(ttl) : null));
                });
            }

            @Override
            public Optional<List<Holder>> holders(String key, Hold.Kind kind) {
                if (kind == Hold.Kind.EXCLUSIVE) {
                    return Optional.empty();
                }
                return Optional.of(shared.holders(key, kind));
            }
        });
    }

    @Override
    public void close() {
        try {
            signals.close();
        } finally {
            link.close();
        }
    }

    interface Call<T> {
        T run();
    }

    private <T> T call(String lockName, String what, Call<T> call) {
        return call(link, description, lockName, what, call);
    }

    /**
     * Runs an owner-checked call, which may run twice: on a Cluster, a call refused for want of a
     * connection is sent once more when a refresh of the layout started after it is done (within
     * the command timeout). The core does not send a release again, so one lost on a slot that
     * was just failed over would leave the lock taken for the rest of its lease.
     */
    private <T> T callRepeatable(String lockName, String what, Call<T> call) {
        return callRepeatable(link, description, lockName, what, call);
    }

    static <T> T callRepeatable(RedisLink link, String description, String lockName, String what, Call<T> call) {
        try {
            return call.run();
        } catch (RedisException e) {
            if (!link.cluster() || !RedisLink.refused(e)) {
                link.failed(e);
                throw failure(description, lockName, what, e);
            }
            CompletableFuture<Void> refreshed = link.refreshNow();
            try {
                refreshed.get(link.timeout().toNanos(), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException notRefreshed) {
                throw failure(description, lockName, what, e);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw failure(description, lockName, what, e);
            }
            return call(link, description, lockName, what, call);
        }
    }

    /**
     * Runs a Redis call, turning Lettuce's failures into errors that name the lock and the server,
     * and telling the link of the failure.
     */
    static <T> T call(RedisLink link, String description, String lockName, String what, Call<T> call) {
        try {
            return call.run();
        } catch (RedisException e) {
            link.failed(e);
            throw failure(description, lockName, what, e);
        }
    }

    static LockBackendException failure(String description, String lockName, String what, RedisException e) {
        if (e instanceof RedisCommandTimeoutException) {
            return new LockBackendException(what + " of lock '" + lockName + "' timed out on " + description, e);
        }
        return new LockBackendException(
                what + " of lock '" + lockName + "' failed on " + description + ": "
                        + Redaction.redact(String.valueOf(e.getMessage())),
                e);
    }

    @Override
    public String toString() {
        return "RedisBackend[" + description + "]";
    }
}
