package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.locksmith.testing.RedisClusterGroup.MigrationStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // each test leaves the roles and slots it changed
class RedisClusterGroupTest {

    private static final RedisClient CLIENT = RedisClient.create();
    private static final Duration TIMEOUT =
            Duration.ofSeconds(5); // a first connection on a loaded machine can take a second

    @AfterAll
    static void closeClient() {
        CLIENT.shutdown(0, 5, TimeUnit.SECONDS);
    }

    @Test
    @Order(1)
    void startsThreeMastersEachWithAReplicaAndServesAClusterClient() {
        RedisClusterGroup cluster = TestServers.redisCluster();
        assertThat(cluster.uri())
                .as("redis cluster: the URI names the three masters")
                .matches("redis-cluster://127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.1:\\d+");
        assertThat(cluster.nodes()).as("redis cluster: six nodes").hasSize(6);
        List<TestServer> masters = cluster.masters();
        assertThat(masters)
                .as("redis cluster: the nodes started as masters serve slots")
                .containsExactlyElementsOf(cluster.nodes().subList(0, 3));
        for (int i = 0; i < 3; i++) {
            assertThat(cluster.replicaOf(masters.get(i)))
                    .as("redis cluster: master %d's replica", i)
                    .isSameAs(cluster.nodes().get(3 + i));
        }
        RedisClusterClient client = clusterClient(cluster);
        try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
            for (int i = 0; i < 20; i++) {
                String key = "group-key-" + i;
                connection.sync().set(key, "v" + i);
                assertThat(cluster.slotOf(key))
                        .as("redis cluster: the server's slot of %s", key)
                        .isEqualTo(SlotHash.getSlot(key));
                assertThat(get(cluster.masterOf(key), key))
                        .as("redis cluster: masterOf(%s) holds it", key)
                        .isEqualTo("v" + i);
            }
        } finally {
            client.shutdown();
        }
    }

    @Test
    @Order(2)
    void migratesASlotWithItsKeysAndAsksForThemInBetween() {
        RedisClusterGroup cluster = TestServers.redisCluster();
        String key = "migrated-key";
        TestServer from = cluster.masterOf(key);
        TestServer to =
                cluster.masters().stream().filter(m -> m != from).findFirst().orElseThrow();
        try (StatefulRedisConnection<String, String> owner = connect(from)) {
            owner.sync().set(key, "moving", SetArgs.Builder.px(60_000));
        }
        List<MigrationStep> seen = new ArrayList<>();
        cluster.migrateSlot(key, to, step -> {
            seen.add(step);
            if (step == MigrationStep.MARKED) {
                assertThat(get(from, key))
                        .as("redis cluster: marked for migration, the key is still on its owner")
                        .isEqualTo("moving");
            } else {
                assertThatThrownBy(() -> get(from, key))
                        .as("redis cluster: with the keys moved, the owner answers ASK")
                        .isInstanceOf(RedisCommandExecutionException.class)
                        .hasMessageContaining("ASK");
                try (StatefulRedisConnection<String, String> target = connect(to)) {
                    target.sync().asking();
                    assertThat(target.sync().get(key))
                            .as("redis cluster: with ASKING, the target serves the moved key")
                            .isEqualTo("moving");
                }
            }
        });
        assertThat(seen)
                .as("redis cluster: the hook ran after each step")
                .containsExactly(MigrationStep.MARKED, MigrationStep.KEYS_MOVED);
        assertThat(cluster.masterOf(key))
                .as("redis cluster: the slot's new owner")
                .isSameAs(to);
        try (StatefulRedisConnection<String, String> target = connect(to)) {
            assertThat(target.sync().get(key))
                    .as("redis cluster: the moved key on its new owner")
                    .isEqualTo("moving");
            assertThat(target.sync().pttl(key))
                    .as("redis cluster: the moved key kept its expiry")
                    .isBetween(1L, 60_000L);
        }
    }

    @Test
    @Order(3)
    void aPausedShardIsNotFailedOverAndServesAgainOnceResumed() {
        RedisClusterGroup cluster = TestServers.redisCluster();
        TestServer paused = cluster.masters().get(1);
        TestServer other = cluster.masters().get(0);
        cluster.pauseShard(paused);
        try {
            // the other masters notice, and would promote the replica if it were allowed to
            LocalRedisClusterGroup.until(
                    "redis cluster: the other master counts the paused one as failing",
                    () -> ClusterNodes.of(other.port())
                            .byPort(paused.port())
                            .map(ClusterNodes.Node::failing)
                            .orElse(false));
            try (StatefulRedisConnection<String, String> c = connect(other)) {
                assertThat(c.sync().ping())
                        .as("redis cluster: another shard serves while one is paused")
                        .isEqualTo("PONG");
            }
        } finally {
            cluster.resumeShard(paused);
        }
        assertThat(cluster.masters())
                .as("redis cluster: no failover while the shard was paused")
                .contains(paused);
        try (StatefulRedisConnection<String, String> c = connect(paused)) {
            assertThat(c.sync().ping())
                    .as("redis cluster: the resumed master serves")
                    .isEqualTo("PONG");
        }
    }

    @Test
    @Order(4)
    void failOverPromotesTheReplicaWithTheDataAndRejoinMakesTheOldMasterItsReplica() throws Exception {
        RedisClusterGroup cluster = TestServers.redisCluster();
        String key = "failed-over-key";
        TestServer old = cluster.masterOf(key);
        TestServer replica = cluster.replicaOf(old);
        try (StatefulRedisConnection<String, String> master = connect(old)) {
            master.sync().set(key, "kept");
            assertThat(master.sync().waitForReplication(1, 10_000))
                    .as("redis cluster: the replica has the write")
                    .isEqualTo(1L);
        }
        TestServer promoted = cluster.failOver(old);
        try {
            assertThat(promoted)
                    .as("redis cluster: the killed master's replica took over")
                    .isSameAs(replica);
            assertThat(cluster.masterOf(key))
                    .as("redis cluster: the slot's owner after the failover")
                    .isSameAs(promoted);
            assertThat(get(promoted, key))
                    .as("redis cluster: the promoted replica has the data")
                    .isEqualTo("kept");
        } finally {
            cluster.rejoin(old);
        }
        assertThat(cluster.replicaOf(promoted))
                .as("redis cluster: the old master came back as the new one's replica")
                .isSameAs(old);
        assertThat(cluster.masters())
                .as("redis cluster: three masters again")
                .hasSize(3)
                .doesNotContain(old);
        RedisClusterClient client = clusterClient(cluster);
        try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
            Polls.until(
                    Duration.ofSeconds(30),
                    () -> assertThat(connection.sync().get(key))
                            .as("redis cluster: a new client reads the key through the cluster URI")
                            .isEqualTo("kept"));
        } finally {
            client.shutdown();
        }
    }

    private static RedisClusterClient clusterClient(RedisClusterGroup cluster) {
        List<RedisURI> seeds = new ArrayList<>();
        for (String node : cluster.uri().substring("redis-cluster://".length()).split(",")) {
            seeds.add(RedisURI.builder(RedisURI.create("redis://" + node))
                    .withTimeout(TIMEOUT)
                    .build());
        }
        return RedisClusterClient.create(seeds);
    }

    private static StatefulRedisConnection<String, String> connect(TestServer node) {
        return CLIENT.connect(RedisURI.builder(RedisURI.create(node.uri()))
                .withTimeout(TIMEOUT)
                .build());
    }

    private static String get(TestServer node, String key) {
        try (StatefulRedisConnection<String, String> c = connect(node)) {
            return c.sync().get(key);
        }
    }
}
