package io.locksmith.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;
import io.locksmith.LockBackendException;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.RenewOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews a client's leases with {@code renew.lua}: one call for all of them on a single server.
 * On a Cluster a script's keys must share a slot, so it is one call per slot; the calls are sent
 * together and awaited together, and a call that fails (its shard is down, slow or refuses it)
 * fails only its own slot's leases. Sent one after another, a hung shard's slots would each cost
 * a command timeout before the healthy shards' leases were renewed at all.
 */
final class RedisRenewal {

    private static final Logger log = LoggerFactory.getLogger(RedisRenewal.class);
    private static final long SLACK_NANOS =
            TimeUnit.SECONDS.toNanos(1); // past the command timeout, for Lettuce's own expiry

    private final RedisLink link;
    private final String description;
    private volatile boolean slotsFailing; // some slots failed last time: warned already

    RedisRenewal(RedisLink link, String description) {
        this.link = link;
        this.description = description;
    }

    List<RenewOutcome> renew(List<HeldLease> leases) {
        Map<Integer, List<Integer>> batches = new LinkedHashMap<>();
        for (int i = 0; i < leases.size(); i++) {
            int slot = link.cluster()
                    ? SlotHash.getSlot(RedisKeys.lock(leases.get(i).key()))
                    : 0;
            batches.computeIfAbsent(slot, s -> new ArrayList<>()).add(i);
        }
        RenewOutcome[] outcomes = new RenewOutcome[leases.size()];
        if (batches.size() == 1) {
            Batch batch = new Batch(leases, batches.values().iterator().next());
            batch.record(
                    RedisBackend.call(
                            link,
                            description,
                            batch.lockName(),
                            "renew",
                            () -> batch.script.run(link.scripts(), ScriptOutputType.MULTI, batch.keys, batch.args)),
                    outcomes);
            return List.of(outcomes);
        }
        List<Batch> sent = new ArrayList<>();
        for (List<Integer> indices : batches.values()) {
            Batch batch = new Batch(leases, indices);
            try {
                batch.reply =
                        batch.script.runAsync(link.asyncScripts(), ScriptOutputType.MULTI, batch.keys, batch.args);
            } catch (RedisException e) {
                batch.reply = CompletableFuture.failedFuture(e); // told to the link when awaited
            }
            sent.add(batch);
        }
        // the system clock, not the client's ticker: this bounds waits for replies, which pass in real time
        long deadline = System.nanoTime() + link.timeout().toNanos() + SLACK_NANOS;
        LockBackendException firstFailure = null;
        int failed = 0;
        for (Batch batch : sent) {
            try {
                batch.record(await(batch, deadline), outcomes);
            } catch (LockBackendException e) {
                failed++;
                firstFailure = firstFailure == null ? e : firstFailure;
                batch.indices.forEach(i -> outcomes[i] = RenewOutcome.FAILED);
            }
        }
        if (failed == sent.size()) {
            throw firstFailure; // the core logs it and retries every lease
        }
        if (failed > 0 && !slotsFailing) {
            // the core sees only FAILED outcomes here, so the reason is told here, once, as the core does
            log.warn(
                    "renewing the locks of {} of {} Cluster slots on {} failed; retrying while their leases last: {}",
                    failed,
                    sent.size(),
                    description,
                    firstFailure.getMessage());
        }
        slotsFailing = failed > 0;
        return List.of(outcomes);
    }

    private List<Object> await(Batch batch, long deadline) {
        try {
            return batch.reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RedisException cause) {
                link.failed(cause);
                throw RedisBackend.failure(description, batch.lockName(), "renew", cause);
            }
            throw new LockBackendException(
                    "renew of lock '" + batch.lockName() + "' failed on " + description, e.getCause());
        } catch (TimeoutException e) {
            batch.reply.cancel(false);
            throw new LockBackendException("renew of lock '" + batch.lockName() + "' timed out on " + description, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockBackendException(
                    "renew of lock '" + batch.lockName() + "' on " + description + " was interrupted", e);
        }
    }

    /**
     * One slot's leases as a renewal script's keys and arguments, and its reply once sent: locks
     * alone go to {@code renew.lua}; a batch with a semaphore's permit or a read-write lock's side
     * among them goes to {@code renew-mixed.lua}, still one call.
     */
    private static final class Batch {
        final List<HeldLease> leases;
        final List<Integer> indices;
        final RedisScript script;
        final String[] keys;
        final String[] args;
        CompletableFuture<List<Object>> reply;

        Batch(List<HeldLease> leases, List<Integer> indices) {
            this.leases = leases;
            this.indices = indices;
            int n = indices.size();
            boolean locksOnly =
                    indices.stream().allMatch(i -> leases.get(i).hold().kind() == Hold.Kind.EXCLUSIVE);
            if (locksOnly) {
                script = RedisScript.RENEW;
                keys = new String[n];
                args = new String[2 * n];
                for (int j = 0; j < n; j++) {
                    HeldLease l = leases.get(indices.get(j));
                    keys[j] = RedisKeys.lock(l.key());
                    args[j] = RedisKeys.value(l.token(), l.owner());
                    args[n + j] = Long.toString(l.lease().toMillis());
                }
                return;
            }
            script = RedisScript.RENEW_MIXED;
            keys = new String[2 * n];
            args = new String[4 * n];
            for (int j = 0; j < n; j++) {
                HeldLease l = leases.get(indices.get(j));
                if (l.hold().kind() == Hold.Kind.EXCLUSIVE) {
                    keys[2 * j] = RedisKeys.lock(l.key());
                    keys[2 * j + 1] = keys[2 * j];
                    args[4 * j] = "x";
                    args[4 * j + 1] = RedisKeys.value(l.token(), l.owner());
                    args[4 * j + 2] = "";
                } else {
                    RedisKeys.Shared shared = RedisKeys.shared(l.key(), l.hold().kind());
                    keys[2 * j] = shared.holders();
                    keys[2 * j + 1] = shared.grants();
                    args[4 * j] = "h";
                    args[4 * j + 1] = l.owner();
                    args[4 * j + 2] = Long.toString(l.token());
                }
                args[4 * j + 3] = Long.toString(l.lease().toMillis());
            }
        }

        String lockName() {
            return leases.get(indices.get(0)).name();
        }

        void record(List<Object> renewed, RenewOutcome[] outcomes) {
            for (int j = 0; j < indices.size(); j++) {
                outcomes[indices.get(j)] =
                        ((Long) renewed.get(j)) == 1L ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED;
            }
        }
    }
}
