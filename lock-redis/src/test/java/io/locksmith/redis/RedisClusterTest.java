package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.RenewOutcome;
import io.locksmith.testing.RedisClusterGroup;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A real Cluster (three masters with replicas, shared by the JVM's tests): what one shard's trouble
 * may cost the others. A stopped shard is its master and its replica paused together, so that
 * the cluster does not fail it over: unreachable, not replaced.
 */
class RedisClusterTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final int LOCKS = 30;

    private final RedisClusterGroup cluster = TestServers.redisCluster();

    @Test
    void aStoppedShardFailsOnlyItsOwnLeasesAndDoesNotHoldUpTheOthersRenewal() {
        try (RedisTestBackends.Opened opened =
                RedisTestBackends.open(cluster.uri(), Map.of("timeout", TIMEOUT.toMillis() + "ms"))) {
            RedisBackend backend = opened.backend();
            List<HeldLease> leases = new ArrayList<>();
            TestServer stopped = cluster.masters().get(1);
            int onStopped = 0;
            for (int i = 0; i < LOCKS; i++) {
                AcquireRequest request = RedisTestBackends.request("shard-lock-" + i, "owner-" + i);
                leases.add(RedisTestBackends.lease(request, RedisTestBackends.grant(backend, request)));
                onStopped += node(leases.get(i)) == stopped ? 1 : 0;
            }
            assertThat(onStopped)
                    .as("[redis] test set-up: several locks live on the node to stop")
                    .isGreaterThan(3);
            assertThat(backend.renew(leases))
                    .as("[redis] cluster renewal: every lease renews while all nodes run")
                    .containsOnly(RenewOutcome.RENEWED);

            cluster.pauseShard(stopped);
            List<RenewOutcome> outcomes;
            long start = System.nanoTime();
            try {
                outcomes = backend.renew(leases);
            } finally {
                cluster.resumeShard(stopped);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            for (int i = 0; i < LOCKS; i++) {
                assertThat(outcomes.get(i))
                        .as(
                                "[redis] cluster renewal with %s stopped: lease %s on %s",
                                stopped, leases.get(i).key(), node(leases.get(i)))
                        .isEqualTo(node(leases.get(i)) == stopped ? RenewOutcome.FAILED : RenewOutcome.RENEWED);
            }
            assertThat(took)
                    .as(
                            "[redis] cluster renewal with %s stopped: the %d slots on it time out together,"
                                    + " not one %s timeout after another",
                            stopped, onStopped, TIMEOUT)
                    .isLessThan(TIMEOUT.multipliedBy(3));
        }
    }

    @Test
    void aNewClientsFirstAttemptOnEveryShardIsAnswered() {
        try (RedisTestBackends.Opened opened = RedisTestBackends.open(cluster.uri(), Map.of("timeout", "5s"))) {
            RedisBackend backend = opened.backend();
            Set<TestServer> untried = new HashSet<>(cluster.masters());
            for (int i = 0; !untried.isEmpty(); i++) {
                AcquireRequest request = RedisTestBackends.request("first-on-shard-" + i, "owner-" + i);
                TestServer node = cluster.masterOf(RedisKeys.lock(request.key()));
                if (untried.remove(node)) {
                    long token = RedisTestBackends.grant(backend, request);
                    assertThat(backend.release(RedisTestBackends.lease(request, token)))
                            .as("[redis] cluster: the first grant on %s is released", node)
                            .isTrue();
                }
            }
        }
    }

    @Test
    void handlesOnHealthyShardsStayHeldWhileAnotherShardIsStoppedPastTheLease() {
        try (LockClient locks = LockClient.open(cluster.uri() + "?lease=4s&renew-interval=1s&timeout=1s")) {
            List<LockHandle> healthy = new ArrayList<>();
            List<LockHandle> stopped = new ArrayList<>();
            TestServer shard = cluster.masters().get(1);
            for (int i = 0; i < LOCKS; i++) {
                LockHandle h = locks.lock("held-on-shard-" + i).acquire(Duration.ofSeconds(5));
                (cluster.masterOf(RedisKeys.lock("held-on-shard-" + i)) == shard ? stopped : healthy).add(h);
            }
            cluster.pauseShard(shard);
            try {
                // time is the subject: the stopped shard's leases must run out while the others are renewed
                await().during(Duration.ofSeconds(6))
                        .atMost(Duration.ofSeconds(12))
                        .until(() -> healthy.stream().allMatch(LockHandle::isHeld));
                assertThat(stopped)
                        .as("[redis] cluster with %s stopped past the lease: its handles are lost", shard)
                        .noneMatch(LockHandle::isHeld);
            } finally {
                cluster.resumeShard(shard);
            }
            assertThat(healthy)
                    .as("[redis] cluster with %s stopped: the other shards' handles stay held", shard)
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
            assertThat(next.isHeld())
                    .as("[redis] cluster: the release's publish woke the waiter")
                    .isTrue();
            next.close();
        }
    }

    /** Subscribers on every node: a Cluster's pub/sub connection talks to any one of them. */
    private long subscribers(String key) {
        long total = 0;
        for (TestServer node : cluster.nodes()) {
            RedisClient any = RedisClient.create(node.uri());
            try (StatefulRedisConnection<String, String> c = any.connect()) {
                total += c.sync().pubsubNumsub(RedisKeys.channel(key)).values().stream()
                        .mapToLong(Long::longValue)
                        .sum();
            } finally {
                any.shutdown();
            }
        }
        return total;
    }

    private TestServer node(HeldLease lease) {
        return cluster.masterOf(RedisKeys.lock(lease.key()));
    }
}
