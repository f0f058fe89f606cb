package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.testing.RedisClusterGroup;
import io.locksmith.testing.RedisClusterGroup.MigrationStep;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Locks on a real Cluster while it changes under them: a slot migrated while its lock is held
 * and waited for, and a master killed and replaced by its replica. Each test watches the lock key
 * on the node that serves it, so "the holder kept renewing" is seen on the server, not inferred
 * from the handle.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the failover changes the roles, so it runs last
class RedisClusterFaultTest {

    private static final RedisClient ADMIN = RedisClient.create();
    // generous: a failover takes a few seconds, and the machine may be saturated
    private static final Duration BOUND = Duration.ofSeconds(45);

    private final RedisClusterGroup cluster = TestServers.redisCluster();

    @AfterAll
    static void closeAdmin() {
        ADMIN.shutdown(0, 5, TimeUnit.SECONDS);
    }

    @Test
    @Order(1)
    void aSlotMigratedUnderAHeldAndAwaitedLockKeepsTheHolderRenewingAndHandsTheLockOnWithAHigherToken()
            throws Exception {
        String name = "migrating-lock";
        TestServer from = cluster.masterOf(RedisKeys.lock(name));
        TestServer to =
                cluster.masters().stream().filter(m -> m != from).findFirst().orElseThrow();
        try (LockClient holder = LockClient.open(cluster.uri() + "?lease=15s&renew-interval=1s&timeout=2s");
                LockClient waiter = LockClient.open(cluster.uri() + "?timeout=2s");
                LockClient third = LockClient.open(cluster.uri() + "?timeout=2s")) {
            LockHandle held = holder.lock(name).acquire(Duration.ofSeconds(10));
            LockHandle neighbour = holder.lock(sameSlotAs(name, 0)).acquire(Duration.ofSeconds(10)); // held throughout
            // nobody waits for these two, so their queues' keys are absent: a release's script must not need them
            String aloneName = sameSlotAs(name, 1);
            String lastName = sameSlotAs(name, 2);
            LockHandle alone = holder.lock(aloneName).acquire(Duration.ofSeconds(10));
            LockHandle last = holder.lock(lastName).acquire(Duration.ofSeconds(10));
            long token = held.fencingToken();
            CompletableFuture<LockHandle> waiting = waiter.lock(name).acquireAsync(BOUND.multipliedBy(2));
            cluster.migrateSlot(RedisKeys.lock(name), to, step -> {
                boolean moved = step == MigrationStep.KEYS_MOVED;
                awaitRenewal(moved ? to : from, RedisKeys.lock(name), moved, "[redis] cluster, slot " + step);
                assertThat(held.isHeld())
                        .as("[redis] cluster, slot %s: the holder still holds", step)
                        .isTrue();
                assertThat(waiting)
                        .as("[redis] cluster, slot %s: the waiter is not granted a held lock", step)
                        .isNotDone();
                if (!moved) {
                    alone.close(); // every key is still on the owner, but the queue's are missing
                    assertThat(existsWhileMigrating(from, to, RedisKeys.lock(aloneName)))
                            .as("[redis] cluster, slot marked: the release of a lock nobody waits for removed its key")
                            .isFalse();
                }
                if (moved) {
                    last.close();
                    held.close(); // its release is asked for on the target
                    try (StatefulRedisConnection<String, String> c = connect(to)) {
                        c.sync().asking();
                        String value = c.sync().get(RedisKeys.lock(name));
                        assertThat(value == null || Long.parseLong(value.substring(0, value.indexOf(':'))) > token)
                                .as(
                                        "[redis] cluster, ASK window: the release removed the holder's grant on the"
                                                + " target (the key is %s: free, or granted to the waiter)",
                                        value)
                                .isTrue();
                        c.sync().asking();
                        assertThat(c.sync().exists(RedisKeys.lock(lastName)))
                                .as(
                                        "[redis] cluster, ASK window: the release of a lock nobody waits for removed its key")
                                .isZero();
                    }
                    // the free lock's key is missing where its counter is: Redis refuses the script until the slot is
                    // assigned
                    assertThatThrownBy(() -> third.lock(name).tryAcquire())
                            .as(
                                    "[redis] cluster, ASK window: an attempt on the free lock, as docs/backends/redis.md says")
                            .isInstanceOf(LockBackendException.class)
                            .hasMessageContaining("TRYAGAIN");
                }
            });
            // the holder's client still sends the slot's calls to the old owner, which answers MOVED
            awaitRenewal(to, RedisKeys.lock(sameSlotAs(name, 0)), false, "[redis] cluster, slot migrated");
            assertThat(neighbour.isHeld())
                    .as("[redis] cluster, slot migrated: a lock held throughout is still held")
                    .isTrue();
            neighbour.close();
            LockHandle next = waiting.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            try {
                assertThat(next.fencingToken())
                        .as("[redis] cluster, slot migrated: the next grant's token")
                        .isGreaterThan(token);
                try (StatefulRedisConnection<String, String> c = connect(to)) {
                    assertThat(c.sync().get(RedisKeys.fence(name)))
                            .as("[redis] cluster, slot migrated: the fence counter moved with the slot")
                            .isEqualTo(Long.toString(next.fencingToken()));
                }
            } finally {
                next.close();
            }
        }
    }

    @Test
    @Order(2)
    void aMasterKilledUnderHeldLocksIsReplacedTheHolderKeepsRenewingAndItsReleasesHandTheLocksOn() throws Exception {
        TestServer old = cluster.masters().get(0);
        String released = nameOn(old, "failover-released-");
        String kept = nameOn(old, "failover-kept-");
        String other = nameOn(old, "failover-other-");
        TestServer replica = cluster.replicaOf(old);
        try (LockClient holder = LockClient.open(cluster.uri() + "?lease=30s&renew-interval=1s&timeout=2s");
                LockClient waiter = LockClient.open(cluster.uri() + "?timeout=2s")) {
            LockHandle first = holder.lock(released).acquire(Duration.ofSeconds(10));
            LockHandle second = holder.lock(kept).acquire(Duration.ofSeconds(10));
            CompletableFuture<LockHandle> firstWaiter = waiter.lock(released).acquireAsync(BOUND.multipliedBy(3));
            CompletableFuture<LockHandle> secondWaiter = waiter.lock(kept).acquireAsync(BOUND.multipliedBy(3));
            // replication is asynchronous; that window is docs/backends/redis.md's, not this test's
            try (StatefulRedisConnection<String, String> c = connect(replica)) {
                c.sync().readOnly();
                await("[redis] cluster: the replica has both grants")
                        .atMost(BOUND)
                        .until(() -> c.sync().get(RedisKeys.lock(released)) != null
                                && c.sync().get(RedisKeys.lock(kept)) != null);
            }
            TestServer promoted = cluster.failOver(old);
            try {
                // at once, before the clients happened to learn the new layout by themselves
                long closed = System.nanoTime();
                first.close();
                LockHandle next = firstWaiter.get(BOUND.toSeconds(), TimeUnit.SECONDS);
                assertThat(Duration.ofNanos(System.nanoTime() - closed))
                        .as("[redis] cluster, master killed: a release just after the failover frees the lock for the"
                                + " waiter at once, not when its 30 s lease runs out")
                        .isLessThan(Duration.ofSeconds(15));
                next.close();

                awaitRenewal(promoted, RedisKeys.lock(kept), false, "[redis] cluster, master killed");
                assertThat(second.isHeld())
                        .as("[redis] cluster, master killed: the holder still holds")
                        .isTrue();
                assertThat(secondWaiter)
                        .as("[redis] cluster, master killed: the waiter is not granted a held lock")
                        .isNotDone();
                try (LockHandle again = holder.lock(other).acquire(BOUND)) {
                    assertThat(again.isHeld())
                            .as("[redis] cluster, master killed: the holder's client takes another lock"
                                    + " on the promoted replica")
                            .isTrue();
                }
                try (LockClient fresh = LockClient.open(cluster.uri() + "?timeout=2s");
                        LockHandle again = fresh.lock(other).acquire(BOUND)) {
                    assertThat(again.isHeld())
                            .as("[redis] cluster, master killed: a new client (one seed down) takes it")
                            .isTrue();
                }
                long token = second.fencingToken();
                second.close();
                LockHandle after = secondWaiter.get(BOUND.toSeconds(), TimeUnit.SECONDS);
                assertThat(after.fencingToken())
                        .as("[redis] cluster, master killed: the waiter's token")
                        .isGreaterThan(token);
                after.close();
            } finally {
                cluster.rejoin(old);
            }
        }
    }

    /** Whether a key of a migrating slot is on its owner, or else (the owner answers ASK) on the target. */
    private static boolean existsWhileMigrating(TestServer from, TestServer to, String key) {
        try (StatefulRedisConnection<String, String> c = connect(from)) {
            return c.sync().exists(key) == 1;
        } catch (RedisCommandExecutionException e) {
            assertThat(e).hasMessageStartingWith("ASK");
        }
        try (StatefulRedisConnection<String, String> c = connect(to)) {
            c.sync().asking();
            return c.sync().exists(key) == 1;
        }
    }

    /** Waits until the key's expiry on the node moves back up: only a renewal does that. */
    private static void awaitRenewal(TestServer node, String key, boolean asking, String what) {
        try (StatefulRedisConnection<String, String> c = connect(node)) {
            long before = pttl(c.sync(), key, asking);
            assertThat(before).as("%s: the lock key is on %s", what, node).isPositive();
            await(what + ": the holder renews the lock key on " + node)
                    .atMost(BOUND)
                    .until(() -> pttl(c.sync(), key, asking) > before);
        }
    }

    private static long pttl(RedisCommands<String, String> commands, String key, boolean asking) {
        if (asking) {
            commands.asking(); // for the next command only
        }
        return commands.pttl(key);
    }

    /** The {@code n}th other lock name (from 0) whose keys live in the same slot. */
    private static String sameSlotAs(String name, int n) {
        int slot = SlotHash.getSlot(RedisKeys.lock(name));
        int found = 0;
        for (int i = 0; ; i++) {
            if (SlotHash.getSlot(RedisKeys.lock(name + "-neighbour-" + i)) == slot && found++ == n) {
                return name + "-neighbour-" + i;
            }
        }
    }

    private String nameOn(TestServer master, String prefix) {
        for (int i = 0; ; i++) {
            if (cluster.masterOf(RedisKeys.lock(prefix + i)) == master) {
                return prefix + i;
            }
        }
    }

    private static StatefulRedisConnection<String, String> connect(TestServer node) {
        return ADMIN.connect(RedisURI.builder(RedisURI.create(node.uri()))
                .withTimeout(Duration.ofSeconds(5))
                .build());
    }
}
