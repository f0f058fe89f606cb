package io.locksmith.redis;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;
import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.Redaction;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Locks in Redis: each primitive is one script call, so ownership checks and changes are atomic
 * on the server, and leases are kept by the server's key expiry.
 */
final class RedisBackend implements LockBackend {

    private static final Logger log = LoggerFactory.getLogger(RedisBackend.class);

    private final RedisLink link;
    private final RedisSignals signals;
    private final String description;
    private final int replicas;
    private final long replicaTimeoutMillis;
    private volatile boolean slotsFailing; // some slots' renewals failed last time: warned already

    RedisBackend(RedisLink link, String description, int replicas, Duration replicaTimeout) {
        this.link = link;
        this.signals = new RedisSignals(link::openPubSub, description);
        this.description = description;
        this.replicas = replicas;
        this.replicaTimeoutMillis = replicaTimeout.toMillis();
    }

    RedisLink link() {
        return link;
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
    public AcquireResult tryAcquire(AcquireRequest request) {
        String key = request.key();
        Long answer = call(request.name(), "acquire", () -> RedisScript.ACQUIRE.run(link.scripts(), ScriptOutputType.INTEGER,
                new String[] {RedisKeys.lock(key), RedisKeys.fence(key)},
                request.owner(), Long.toString(request.lease().toMillis())));
        if (answer < 0) {
            // the core sleeps through a known remaining lease, counting on the release's signal;
            // where the server refused this key's signals, not telling it makes the core back off
            return signals.unsignalled(key) ? Held.UNKNOWN : Held.remaining(Duration.ofMillis(-1 - answer));
        }
        if (replicas > 0) {
            awaitReplicas(request, answer);
        }
        return Grant.of(answer);
    }

    private void awaitReplicas(AcquireRequest request, long token) {
        long acknowledged = call(request.name(), "wait for replicas", () -> link.waitForReplicas(replicas, replicaTimeoutMillis));
        if (acknowledged < replicas) {
            release(new HeldLease(request.key(), request.name(), request.owner(), token, request.lease(), null));
            throw new LockBackendException("lock '" + request.name() + "' on " + description + " was granted but only "
                    + acknowledged + " of " + replicas + " replicas acknowledged it within " + replicaTimeoutMillis
                    + " ms; it was released again");
        }
    }

    /**
     * One script call per Cluster slot (one call in all on a single server). A call that fails
     * fails only its own slot's leases: one unreachable shard must not cost the others their
     * renewals. Only when every call failed does the renewal fail as a whole, with the first error.
     */
    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        Map<Integer, List<Integer>> batches = new LinkedHashMap<>();
        for (int i = 0; i < leases.size(); i++) {
            int slot = link.cluster() ? SlotHash.getSlot(RedisKeys.lock(leases.get(i).key())) : 0;
            batches.computeIfAbsent(slot, s -> new ArrayList<>()).add(i);
        }
        RenewOutcome[] outcomes = new RenewOutcome[leases.size()];
        LockBackendException firstFailure = null;
        int failed = 0;
        for (Map.Entry<Integer, List<Integer>> batch : batches.entrySet()) {
            try {
                renewBatch(leases, batch.getValue(), outcomes);
            } catch (LockBackendException e) {
                failed++;
                firstFailure = firstFailure == null ? e : firstFailure;
                batch.getValue().forEach(i -> outcomes[i] = RenewOutcome.FAILED);
            }
        }
        if (failed == batches.size()) {
            throw firstFailure; // the core logs it and retries every lease
        }
        if (failed > 0 && !slotsFailing) {
            // the core sees only FAILED outcomes here, so the reason is told once, as the core does
            log.warn("renewing the locks of {} of {} Cluster slots on {} failed; retrying while their leases last: {}",
                    failed, batches.size(), description, firstFailure.getMessage());
        }
        slotsFailing = failed > 0;
        return List.of(outcomes);
    }

    private void renewBatch(List<HeldLease> leases, List<Integer> batch, RenewOutcome[] outcomes) {
        int n = batch.size();
        String[] keys = new String[n];
        String[] args = new String[2 * n];
        for (int j = 0; j < n; j++) {
            HeldLease l = leases.get(batch.get(j));
            keys[j] = RedisKeys.lock(l.key());
            args[j] = RedisKeys.value(l.token(), l.owner());
            args[n + j] = Long.toString(l.lease().toMillis());
        }
        List<Object> renewed = call(leases.get(batch.get(0)).name(), "renew",
                () -> RedisScript.RENEW.run(link.scripts(), ScriptOutputType.MULTI, keys, args));
        for (int j = 0; j < n; j++) {
            outcomes[batch.get(j)] = ((Long) renewed.get(j)) == 1L ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED;
        }
    }

    @Override
    public boolean release(HeldLease lease) {
        String key = lease.key();
        Long released = call(lease.name(), "release", () -> RedisScript.RELEASE.run(link.scripts(), ScriptOutputType.INTEGER,
                new String[] {RedisKeys.lock(key)}, RedisKeys.value(lease.token(), lease.owner()), RedisKeys.channel(key)));
        return released == 1L;
    }

    /**
     * Removes the key if the given-up attempt's owner holds it, under whatever token, and wakes
     * waiters: an EVALSHA that timed out on the client may still have run on the server.
     */
    @Override
    public void abandon(AcquireRequest request) {
        String key = request.key();
        call(request.name(), "abandon", () -> RedisScript.ABANDON.run(link.scripts(), ScriptOutputType.INTEGER,
                new String[] {RedisKeys.lock(key)}, request.owner(), RedisKeys.channel(key)));
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return Optional.of(signals);
    }

    /** Reads the lock key's {@code TOKEN:OWNER} and its {@code PTTL}; two commands, no script. */
    @Override
    public Optional<io.locksmith.spi.LockInspector> inspector() {
        return Optional.of(key -> call(key, "inspect", () -> {
            String value = link.get(RedisKeys.lock(key));
            if (value == null) {
                return Optional.<io.locksmith.spi.LockInspector.HolderState>empty();
            }
            Long ttl = link.pttl(RedisKeys.lock(key));
            int colon = value.indexOf(':');
            return Optional.of(new io.locksmith.spi.LockInspector.HolderState(value.substring(colon + 1),
                    Long.parseLong(value.substring(0, colon)), ttl != null && ttl >= 0 ? Duration.ofMillis(ttl) : null));
        }));
    }

    @Override
    public void close() {
        try {
            signals.close();
        } finally {
            link.close();
        }
    }

    private interface Call<T> {
        T run();
    }

    private <T> T call(String lockName, String what, Call<T> call) {
        try {
            return call.run();
        } catch (RedisCommandTimeoutException e) {
            throw new LockBackendException(what + " of lock '" + lockName + "' timed out on " + description, e);
        } catch (RedisException e) {
            throw new LockBackendException(what + " of lock '" + lockName + "' failed on " + description + ": "
                    + Redaction.redact(String.valueOf(e.getMessage())), e);
        }
    }

    @Override
    public String toString() {
        return "RedisBackend[" + description + "]";
    }
}
