package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LossReason;
import io.locksmith.testing.RedisSentinelGroup;
import io.locksmith.testing.RefusingPort;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the kit cannot see: the key layout, restarts, deployments and the errors users meet. */
class RedisBackendTest {

    private static TestServer server;
    private static RedisClient admin;
    private static StatefulRedisConnection<String, String> adminConnection;

    @BeforeAll
    static void connect() {
        server = TestServers.redis();
        admin = RedisClient.create(server.uri());
        adminConnection = admin.connect();
    }

    @AfterAll
    static void disconnect() {
        adminConnection.close();
        admin.shutdown();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"order:1", "a{b}c", "{", "}", "}{", "{}", "東京", "a-very-long-name-with-{braces}-inside-and-more"
            })
    void lockKeyFenceCounterAndQueueShareAClusterSlot(String key) {
        int slot = SlotHash.getSlot(RedisKeys.lock(key));
        assertThat(List.of(RedisKeys.fence(key), RedisKeys.queue(key), RedisKeys.presence(key), RedisKeys.wake(key)))
                .as("[redis] keys: a lock's counter and queue are in its slot, for '%s'", key)
                .allSatisfy(k -> assertThat(SlotHash.getSlot(k)).isEqualTo(slot))
                .doesNotHaveDuplicates()
                .doesNotContain(RedisKeys.lock(key));
    }

    @Test
    void aGrantStoresTokenAndOwnerUnderTheLeaseAndTheCounterStays() {
        try (LockClient locks = LockClient.open(server.uri() + "?lease=20s")) {
            LockHandle h = locks.lock("layout").acquire(Duration.ZERO);
            String value = adminConnection.sync().get(RedisKeys.lock("layout"));
            assertThat(value).startsWith(h.fencingToken() + ":");
            assertThat(adminConnection.sync().pttl(RedisKeys.lock("layout"))).isBetween(15_000L, 20_000L);
            h.close();
            assertThat(adminConnection.sync().exists(RedisKeys.lock("layout"))).isZero();
            assertThat(adminConnection.sync().get(RedisKeys.fence("layout")))
                    .isEqualTo(Long.toString(h.fencingToken()));
        }
    }

    @Test
    void statusShowsTheHolderTokenAndLease() {
        try (LockClient locks = LockClient.open(server.uri() + "?lease=20s")) {
            assertThat(locks.lock("status").status().state()).isEqualTo(io.locksmith.LockStatus.State.FREE);
            try (LockHandle h = locks.lock("status").acquire(Duration.ZERO)) {
                io.locksmith.LockStatus s = locks.lock("status").status();
                assertThat(s.fencingToken()).hasValue(h.fencingToken());
                assertThat(s.owner()).isPresent();
                assertThat(s.remainingLease()).get().matches(d -> d.compareTo(Duration.ofSeconds(15)) > 0);
            }
        }
    }

    @Test
    void oneRenewalCallPerTickForAllHeldLocks() {
        try (LockClient locks = LockClient.open(server.uri() + "?lease=1500ms")) {
            List<LockHandle> held = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                held.add(locks.lock("batch-" + i).acquire(Duration.ZERO));
            }
            long before = scriptCalls();
            // time is the subject: over ~3 renewal intervals (500 ms), a few calls renew all 200 locks,
            // where renewing each lock on its own would take hundreds
            await("[redis] batched renewal: at most 6 script calls in 1.6 s for 200 locks")
                    .during(Duration.ofMillis(1600))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> scriptCalls() - before <= 6);
            await("[redis] batched renewal: the locks are renewed")
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> scriptCalls() - before >= 2);
            assertThat(held)
                    .as("[redis] batched renewal: every lock stays held")
                    .allMatch(LockHandle::isHeld);
        }
    }

    @Test
    void aHundredWaitersDoNotPollWhileTheHolderRenews() throws Exception {
        try (LockClient holderClient = LockClient.open(server.uri() + "?lease=20s");
                LockClient waiterClient = LockClient.open(server.uri() + "?backoff-min=5ms&backoff-max=20ms")) {
            LockHandle held = holderClient.lock("crowd").acquire(Duration.ZERO);
            List<CompletableFuture<LockHandle>> waiters = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                waiters.add(waiterClient.lock("crowd").acquireAsync(Duration.ofSeconds(60)));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> subscribers("crowd") == 1);
            long[] last = {scriptCalls()};
            await("[redis] crowd: the waiters' first attempts are done")
                    .atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        long now = scriptCalls();
                        boolean quiet = now == last[0];
                        last[0] = now;
                        return quiet;
                    });
            long before = scriptCalls();
            // time is the subject: each waiter asks about once a second (the fallback poll that
            // also keeps its place in the queue), where a 5-20 ms back-off would ask 50-200 times
            await("[redis] crowd: script calls by 100 waiters stay under 300 in 2 s, against a 5-20 ms back-off")
                    .during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(6))
                    .until(() -> scriptCalls() - before < 300);
            held.close();
            LockHandle next = (LockHandle) CompletableFuture.anyOf(waiters.toArray(CompletableFuture[]::new))
                    .get(10, TimeUnit.SECONDS);
            assertThat(next.isHeld()).as("the release's publish woke a waiter").isTrue();
            waiters.forEach(w -> w.cancel(false));
            next.close();
        }
    }

    @Test
    void aServerRestartWithoutPersistenceLosesEveryHolderAndLocksWorkAfterwards() {
        try (LockClient locks = LockClient.open(server.uri() + "?lease=1500ms&timeout=1s")) {
            LockHandle a = locks.lock("restart-a").acquire(Duration.ZERO);
            LockHandle b = locks.lock("restart-b").acquire(Duration.ZERO);
            server.restart();
            await().atMost(Duration.ofSeconds(10)).until(() -> !a.isHeld() && !b.isHeld());
            assertThat(a.whenLost().toCompletableFuture().getNow(null))
                    .isIn(LossReason.OWNERSHIP_LOST, LossReason.LEASE_EXPIRED);
            LockHandle again = locks.lock("restart-a").acquire(Duration.ofSeconds(10));
            assertThat(again.isHeld()).isTrue();
            again.close();
        }
    }

    @Test
    void aWaiterProceedsSoonAfterARestartFreedTheLockThoughNoReleaseWasPublished() throws Exception {
        try (LockClient holderClient = LockClient.open(server.uri() + "?lease=30s&timeout=1s");
                LockClient waiterClient = LockClient.open(server.uri() + "?timeout=1s")) {
            LockHandle held = holderClient.lock("restart-wait").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> waiting =
                    waiterClient.lock("restart-wait").acquireAsync(Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(10)).until(() -> subscribers("restart-wait") == 1);
            server.restart();
            LockHandle next = waiting.get(7, TimeUnit.SECONDS); // the resubscription wakes it; else its 1 s poll
            assertThat(next.isHeld())
                    .as("[redis] restart: the waiter, woken by its resubscription, holds the lock "
                            + "the restart freed, well before its sleep through the old holder's lease ends")
                    .isTrue();
            next.close();
            held.close();
        }
    }

    @Test
    void aclUsersAndDatabaseNumbersWork() {
        adminConnection
                .sync()
                .aclSetuser(
                        "locker",
                        io.lettuce.core.AclSetuserArgs.Builder.on()
                                .addPassword("s3cret-pw")
                                .allKeys()
                                .allChannels()
                                .allCommands());
        String uri = "redis://locker:s3cret-pw@127.0.0.1:" + server.port() + "/3";
        try (LockClient locks = LockClient.open(uri)) {
            try (LockHandle h = locks.lock("acl").acquire(Duration.ZERO)) {
                assertThat(h.isHeld()).isTrue();
            }
        }
        String wrong = "redis://locker:wrong-pw@127.0.0.1:" + server.port();
        assertThatThrownBy(() -> LockClient.open(wrong))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("127.0.0.1:" + server.port());
    }

    @Test
    void aServerThatIsDownIsAClearErrorWithinTheTimeout() throws IOException {
        try (RefusingPort down = new RefusingPort()) { // refused at once, and no server started meanwhile can take it
            int port = down.port();
            long start = System.nanoTime();
            assertThatThrownBy(() -> LockClient.open("redis://:pw-secret@127.0.0.1:" + port + "?timeout=2s"))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("127.0.0.1:" + port);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void malformedUrisAndOptionsAreRejected() {
        assertThatThrownBy(() -> LockClient.open("redis://:pw-secret@127.0.0.1:notaport"))
                .isInstanceOf(LockConfigurationException.class)
                .satisfies(e ->
                        assertThat(e.getMessage()).doesNotContain("pw-secret").contains("Redis URI"));
        assertThatThrownBy(() -> LockClient.open(server.uri() + "?timeout=soon"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'timeout'");
        assertThatThrownBy(() -> LockClient.open(server.uri() + "?replicas=-1"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'replicas'");
        assertThatThrownBy(() -> LockClient.open(server.uri() + "?databse=1"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'databse'");
    }

    @Test
    void waitingForReplicasThatDoNotExistFailsAndReleases() {
        try (LockClient locks = LockClient.open(server.uri() + "?replicas=1&replica-timeout=200ms")) {
            assertThatThrownBy(() -> locks.lock("replicated").tryAcquire())
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("0 of 1 replicas");
            assertThat(adminConnection.sync().exists(RedisKeys.lock("replicated")))
                    .isZero();
        }
    }

    @Test
    void sentinelDeploymentsAndReplicaAcknowledgementsWork() {
        RedisSentinelGroup group = TestServers.redisWithReplicaAndSentinel();
        try (LockClient locks = LockClient.open(group.sentinelUri() + "?replicas=1&replica-timeout=5s")) {
            LockHandle h = locks.lock("sentinel").acquire(Duration.ofSeconds(5));
            assertThat(h.isHeld()).isTrue();
            h.close();
        }
    }

    @Test
    void anExistingLettuceClientStaysOpen() {
        RedisClient mine = RedisClient.create(server.uri());
        try {
            try (LockClient locks = RedisLocks.open(mine, LockOptions.defaults())) {
                locks.lock("existing").acquire(Duration.ZERO).close();
            }
            try (var c = mine.connect()) {
                assertThat(c.sync().ping()).isEqualTo("PONG");
            }
        } finally {
            mine.shutdown();
        }
    }

    private static long scriptCalls() {
        String stats = adminConnection.sync().info("commandstats");
        long total = 0;
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                total += Long.parseLong(line.replaceAll("^cmdstat_\\w+:calls=(\\d+),.*$", "$1"));
            }
        }
        return total;
    }

    private static long subscribers(String key) {
        return adminConnection.sync().pubsubNumsub(RedisKeys.channel(key)).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }
}
