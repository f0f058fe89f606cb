package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.cluster.SlotHash;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A real three-master Cluster: what one shard's trouble may cost the others. */
class RedisClusterTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
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

    private static int node(HeldLease lease) {
        return cluster.nodeOf(SlotHash.getSlot(RedisKeys.lock(lease.key())));
    }
}
