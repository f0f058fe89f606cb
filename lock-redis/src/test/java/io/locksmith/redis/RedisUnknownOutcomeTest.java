package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Grant;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Attempts whose reply never came although the script ran: the server is paused with
 * {@code CLIENT PAUSE} longer than the client's timeout, so the EVALSHA times out on the client
 * and runs on the server afterwards, deterministically.
 */
class RedisUnknownOutcomeTest {

    private static final Duration PAUSE = Duration.ofMillis(3000); // six client timeouts: margin for a busy machine

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

    @Test
    void aRetryOfTheSameWaitIsGrantedWhatItsTimedOutAttemptTook() {
        try (LockClient locks =
                LockClient.open(server.uri() + "?lease=30s&timeout=500ms&backoff-min=20ms&backoff-max=200ms")) {
            locks.lock("phantom")
                    .acquire(Duration.ZERO)
                    .close(); // the scripts are loaded: what is paused is the EVALSHA
            adminConnection.sync().clientPause(PAUSE.toMillis());
            LockHandle held = locks.lock("phantom").acquire(Duration.ofSeconds(10));
            try {
                String value = adminConnection.sync().get(RedisKeys.lock("phantom"));
                assertThat(value)
                        .as("[redis] own grant: the waiter holds the key its timed-out attempt took")
                        .startsWith(held.fencingToken() + ":");
                assertThat(adminConnection.sync().get(RedisKeys.fence("phantom")))
                        .as("[redis] own grant: recognising it takes no new token")
                        .isEqualTo(Long.toString(held.fencingToken()));
                assertThat(adminConnection.sync().pttl(RedisKeys.lock("phantom")))
                        .as("[redis] own grant: its lease restarted with the retry")
                        .isGreaterThan(25_000L);
            } finally {
                held.close();
            }
            assertThat(adminConnection.sync().exists(RedisKeys.lock("phantom")))
                    .as("[redis] own grant: releasing the handle frees the key")
                    .isZero();
        }
    }

    @Test
    void aTryAcquireWhoseReplyTimedOutLeavesTheLockTakeableWithinMomentsNotALease() {
        try (LockClient slow = LockClient.open(server.uri() + "?lease=30s&timeout=500ms");
                LockClient other = LockClient.open(server.uri() + "?lease=30s")) {
            slow.lock("phantom-once").acquire(Duration.ZERO).close(); // the scripts are loaded
            adminConnection.sync().clientPause(PAUSE.toMillis());
            assertThatThrownBy(() -> slow.lock("phantom-once").tryAcquire())
                    .as("[redis] unanswered tryAcquire: it fails")
                    .isInstanceOf(LockBackendException.class);
            long pauseEnds = System.nanoTime() + PAUSE.toNanos();
            LockHandle next = await().atMost(Duration.ofSeconds(10))
                    .until(() -> other.lock("phantom-once").tryAcquire().orElse(null), h -> h != null);
            assertThat(Duration.ofNanos(System.nanoTime() - pauseEnds))
                    .as(
                            "[redis] unanswered tryAcquire: the attempt that ran after all was abandoned, not held for its 30 s lease")
                    .isLessThan(Duration.ofSeconds(10));
            next.close();
        }
    }

    @Test
    void abandonRemovesWhatAnAttemptWithUnknownOutcomeTookAndWakesWaiters() throws Exception {
        try (RedisTestBackends.Opened opened = RedisTestBackends.open(server.uri(), Map.of("timeout", "500ms"));
                StatefulRedisPubSubConnection<String, String> listener = admin.connectPubSub()) {
            RedisBackend backend = opened.backend();
            CountDownLatch published = new CountDownLatch(1);
            listener.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    published.countDown();
                }
            });
            listener.sync().subscribe(RedisKeys.channel("abandoned"));
            AcquireRequest warmUp = RedisTestBackends.request("abandoned", "warm-up");
            Grant first = (Grant) backend.tryAcquire(warmUp);
            backend.release(RedisTestBackends.lease(warmUp, first.token()));
            AcquireRequest attempt = RedisTestBackends.request("abandoned", "owner-of-the-lost-reply");

            adminConnection.sync().clientPause(PAUSE.toMillis());
            assertThatThrownBy(() -> backend.tryAcquire(attempt)).isInstanceOf(LockBackendException.class);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> adminConnection.sync().get(RedisKeys.lock("abandoned")) != null);
            assertThat(adminConnection.sync().get(RedisKeys.lock("abandoned")))
                    .as("[redis] abandon: the timed-out attempt took the key after all")
                    .endsWith(":" + attempt.owner());

            backend.abandon(attempt);
            assertThat(adminConnection.sync().exists(RedisKeys.lock("abandoned")))
                    .as("[redis] abandon: the key the given-up attempt took is removed")
                    .isZero();
            assertThat(published.await(10, TimeUnit.SECONDS))
                    .as("[redis] abandon: waiters are told the lock is free")
                    .isTrue();
        }
    }

    @Test
    void abandonNeverRemovesAnotherOwnersKey() {
        try (RedisTestBackends.Opened opened = RedisTestBackends.open(server.uri(), Map.of("timeout", "2s"))) {
            RedisBackend backend = opened.backend();
            AcquireRequest holder = RedisTestBackends.request("abandon-other", "the-holder");
            Grant grant = (Grant) backend.tryAcquire(holder);
            backend.abandon(RedisTestBackends.request("abandon-other", "someone-else"));
            assertThat(adminConnection.sync().get(RedisKeys.lock("abandon-other")))
                    .as("[redis] abandon: another owner's grant stays")
                    .isEqualTo(RedisKeys.value(grant.token(), holder.owner()));
            backend.release(RedisTestBackends.lease(holder, grant.token()));
        }
    }
}
