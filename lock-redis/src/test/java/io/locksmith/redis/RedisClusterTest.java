package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A real three-master Cluster: what one shard's trouble may cost the others. */
class RedisClusterTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final int LOCKS = 30;
    private static final int STOPPED = 1;

    private static LocalRedisCluster cluster;

    @BeforeAll
    static void start() {
        cluster = new LocalRedisCluster();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void aStoppedShardFailsOnlyItsOwnLeasesAndDoesNotHoldUpTheOthersRenewal() {
        try (RedisBackend backend = RedisTestBackends.open(cluster.uri(), Map.of("timeout", TIMEOUT.toMillis() + "ms"))) {
            List<HeldLease> leases = new ArrayList<>();
            int onStopped = 0;
            for (int i = 0; i < LOCKS; i++) {
                AcquireRequest request = RedisTestBackends.request("shard-lock-" + i, "owner-" + i);
                leases.add(RedisTestBackends.lease(request, RedisTestBackends.grant(backend, request)));
                onStopped += node(leases.get(i)) == STOPPED ? 1 : 0;
            }
            assertThat(onStopped).as("[redis] test set-up: several locks live on the node to stop").isGreaterThan(3);
            assertThat(backend.renew(leases)).as("[redis] cluster renewal: every lease renews while all nodes run")
                    .containsOnly(RenewOutcome.RENEWED);

            cluster.pause(STOPPED);
            List<RenewOutcome> outcomes;
            long start = System.nanoTime();
            try {
                outcomes = backend.renew(leases);
            } finally {
                cluster.resume(STOPPED);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            for (int i = 0; i < LOCKS; i++) {
                assertThat(outcomes.get(i)).as("[redis] cluster renewal with node %d stopped: lease %s on node %d",
                        STOPPED, leases.get(i).key(), node(leases.get(i)))
                        .isEqualTo(node(leases.get(i)) == STOPPED ? RenewOutcome.FAILED : RenewOutcome.RENEWED);
            }
            assertThat(took).as("[redis] cluster renewal with node %d stopped: the %d slots on it time out together,"
                    + " not one %s timeout after another", STOPPED, onStopped, TIMEOUT)
                    .isLessThan(TIMEOUT.multipliedBy(3));
        }
    }

    @Test
    void aNewClientsFirstAttemptOnEveryShardIsAnswered() {
        try (RedisBackend backend = RedisTestBackends.open(cluster.uri(), Map.of("timeout", "5s"))) {
            boolean[] tried = new boolean[3];
            for (int i = 0; !(tried[0] && tried[1] && tried[2]); i++) {
                AcquireRequest request = RedisTestBackends.request("first-on-shard-" + i, "owner-" + i);
                int node = cluster.nodeOf(SlotHash.getSlot(RedisKeys.lock(request.key())));
                if (!tried[node]) {
                    tried[node] = true;
                    long token = RedisTestBackends.grant(backend, request);
                    assertThat(backend.release(RedisTestBackends.lease(request, token)))
                            .as("[redis] cluster: the first grant on node %d is released", node).isTrue();
                }
            }
        }
    }

    @Test
    void handlesOnHealthyShardsStayHeldWhileAnotherShardIsStoppedPastTheLease() {
        try (LockClient locks = LockClient.open(cluster.uri() + "?lease=4s&renew-interval=1s&timeout=1s")) {
            List<LockHandle> healthy = new ArrayList<>();
            List<LockHandle> stopped = new ArrayList<>();
            for (int i = 0; i < LOCKS; i++) {
                LockHandle h = locks.lock("held-on-shard-" + i).acquire(Duration.ofSeconds(5));
                (cluster.nodeOf(SlotHash.getSlot(RedisKeys.lock("held-on-shard-" + i))) == STOPPED ? stopped : healthy).add(h);
            }
            cluster.pause(STOPPED);
            try {
                // time is the subject: the stopped shard's leases must run out while the others are renewed
                await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(12))
                        .until(() -> healthy.stream().allMatch(LockHandle::isHeld));
                assertThat(stopped).as("[redis] cluster with node %d stopped past the lease: its handles are lost", STOPPED)
                        .noneMatch(LockHandle::isHeld);
            } finally {
                cluster.resume(STOPPED);
            }
            assertThat(healthy).as("[redis] cluster with node %d stopped: the other shards' handles stay held", STOPPED)
                    .allMatch(LockHandle::isHeld);
            healthy.forEach(LockHandle::close);
        }
    }

    @Test
    void aReleaseWakesAWaiterOnTheCluster() throws Exception {
        try (LockClient holder = LockClient.open(cluster.uri() + "?lease=30s");
                LockClient waiter = LockClient.open(cluster.uri())) {
            LockHandle held = holder.lock("cluster-wake").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> waiting = waiter.lock("cluster-wake").acquireAsync(Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(10)).until(() -> subscribers("cluster-wake") == 1);
            held.close();
            LockHandle next = waiting.get(5, TimeUnit.SECONDS);
            assertThat(next.isHeld()).as("[redis] cluster: the release's publish woke the waiter").isTrue();
            next.close();
        }
    }

    /** Subscribers on every node: a Cluster's pub/sub connection talks to any one of them. */
    private static long subscribers(String key) {
        long total = 0;
        for (int node = 0; node < 3; node++) {
            RedisClient any = RedisClient.create(cluster.nodeUri(node));
            try (StatefulRedisConnection<String, String> c = any.connect()) {
                total += c.sync().pubsubNumsub(RedisKeys.channel(key)).values().stream().mapToLong(Long::longValue).sum();
            } finally {
                any.shutdown();
            }
        }
        return total;
    }

    private static int node(HeldLease lease) {
        return cluster.nodeOf(SlotHash.getSlot(RedisKeys.lock(lease.key())));
    }
}
