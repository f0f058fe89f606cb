package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Redis 7 ACL user with no rights on any channel ({@code resetchannels}, the default for new
 * users since Redis 7): SUBSCRIBE and PUBLISH are refused with NOPERM, and locks must work anyway.
 */
class RedisChannelRightsTest {

    private static final String USER = "no-channels";
    private static final String PASSWORD = "no-channels-pw";

    private static TestServer server;
    private static RedisClient admin;
    private static StatefulRedisConnection<String, String> adminConnection;

    @BeforeAll
    static void connect() {
        server = TestServers.redis();
        admin = RedisClient.create(server.uri());
        adminConnection = admin.connect();
        adminConnection
                .sync()
                .aclSetuser(
                        USER,
                        AclSetuserArgs.Builder.on()
                                .addPassword(PASSWORD)
                                .allKeys()
                                .allCommands()
                                .resetChannels());
    }

    @AfterAll
    static void disconnect() {
        adminConnection.sync().aclDeluser(USER);
        adminConnection.close();
        admin.shutdown();
    }

    @Test
    void aReleaseSucceedsAndFreesTheLockThoughItsPublishIsRefused() {
        try (RedisTestBackends.Opened opened = RedisTestBackends.open(userUri(), Map.of("timeout", "2s"))) {
            RedisBackend backend = opened.backend();
            var request = RedisTestBackends.request("no-publish", "the-holder");
            long token = RedisTestBackends.grant(backend, request);
            assertThat(backend.release(RedisTestBackends.lease(request, token)))
                    .as("[redis] release without channel rights: the release succeeds")
                    .isTrue();
            assertThat(adminConnection.sync().exists(RedisKeys.lock("no-publish")))
                    .as("[redis] release without channel rights: the lock is free")
                    .isZero();
        }
    }

    @Test
    void aRefusedSubscriptionIsAnErrorThatSaysWhatToGrantAndTheNextOneAsksAgain() {
        try (RedisTestBackends.Opened opened = RedisTestBackends.open(userUri(), Map.of("timeout", "2s"))) {
            RedisBackend backend = opened.backend();
            ReleaseSignals signals = backend.releaseSignals().orElseThrow();
            for (int attempt = 1; attempt <= 2; attempt++) {
                long denialsBefore = channelDenials();
                assertThatThrownBy(() -> signals.subscribe("refused-signals"))
                        .as("[redis] subscribing without channel rights, attempt %d: refused with the reason", attempt)
                        .isInstanceOf(LockBackendException.class)
                        .hasMessageContaining("NOPERM")
                        .hasMessageContaining("&locksmith:*")
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(PASSWORD));
                assertThat(channelDenials())
                        .as(
                                "[redis] subscribing without channel rights, attempt %d: the server" + " was asked",
                                attempt)
                        .isGreaterThan(denialsBefore);
            }
        }
    }

    @Test
    void aWaiterThatMayNotSubscribeBacksOffAndGetsAReleasedLockWellWithinItsWait() throws Exception {
        try (LockClient holder = LockClient.open(server.uri() + "?lease=30s");
                LockClient waiter = LockClient.open(userUri() + "?backoff-min=20ms&backoff-max=200ms")) {
            LockHandle held = holder.lock("no-subscribe").acquire(Duration.ZERO);
            long denialsBefore = channelDenials();
            CompletableFuture<LockHandle> waiting = waiter.lock("no-subscribe").acquireAsync(Duration.ofSeconds(20));
            await().atMost(Duration.ofSeconds(10)).until(() -> channelDenials() > denialsBefore);
            held.close();
            LockHandle next = waiting.get(5, TimeUnit.SECONDS);
            assertThat(next.isHeld())
                    .as("[redis] waiting without channel rights: the waiter holds the lock")
                    .isTrue();
            next.close();
        }
    }

    @Test
    void laterWaitersOfTheSameLockAreNotStalledByAnEarlierRefusal() throws Exception {
        try (LockClient holder = LockClient.open(server.uri() + "?lease=30s");
                LockClient waiter = LockClient.open(userUri() + "?backoff-min=20ms&backoff-max=200ms")) {
            for (int round = 0; round < 2; round++) {
                LockHandle held = holder.lock("no-subscribe-again").acquire(Duration.ZERO);
                long denialsBefore = channelDenials();
                CompletableFuture<LockHandle> waiting =
                        waiter.lock("no-subscribe-again").acquireAsync(Duration.ofSeconds(20));
                await().atMost(Duration.ofSeconds(10)).until(() -> channelDenials() > denialsBefore);
                held.close();
                LockHandle next = waiting.get(5, TimeUnit.SECONDS);
                assertThat(next.isHeld())
                        .as("[redis] waiting without channel rights, round %d: the waiter holds the lock", round + 1)
                        .isTrue();
                next.close();
            }
        }
    }

    private static String userUri() {
        return "redis://" + USER + ":" + PASSWORD + "@127.0.0.1:" + server.port();
    }

    /** How many channel accesses the server refused so far (ACL LOG counts repeats in one entry). */
    private static long channelDenials() {
        long total = 0;
        for (Map<String, Object> fields : adminConnection.sync().aclLog()) {
            if ("channel".equals(fields.get("reason")) && USER.equals(fields.get("username"))) {
                total += ((Number) fields.get("count")).longValue();
            }
        }
        return total;
    }
}
