package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.locksmith.LossReason;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.testing.TcpProxy;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Release signals on a pub/sub connection through a {@link TcpProxy}, which can hold its replies
 * back (below the command timeout): every message reaches the client's one callback with its
 * key, and nothing that closes a subscription — which the client does when a wait's deadline
 * passes — may wait for another subscription's reply.
 */
class RedisSignalsTest {

    private static final Duration REPLY_DELAY = Duration.ofSeconds(5);

    private TestServer server;
    private TcpProxy proxy;
    private RedisClient client;
    private RedisClient adminClient;
    private StatefulRedisConnection<String, String> admin;
    private final BlockingQueue<String> released = new LinkedBlockingQueue<>();
    private RedisSignals signals;

    @BeforeEach
    void open() throws Exception {
        server = TestServers.redis();
        proxy = new TcpProxy(server.host(), server.port());
        RedisURI uri = RedisURI.create("redis://" + proxy.address());
        uri.setTimeout(Duration.ofSeconds(10));
        client = RedisClient.create(uri);
        client.setOptions(
                RedisLockProvider.options(new RedisSettings(Duration.ofSeconds(10), 0, Duration.ofSeconds(1))));
        adminClient = RedisClient.create(server.uri());
        admin = adminClient.connect();
        BackendEvents events = new BackendEvents() {
            @Override
            public void lost(String key, String owner, LossReason reason) {}

            @Override
            public void allLost(LossReason reason) {}

            @Override
            public void released(String key) {
                released.add(key);
            }

            @Override
            public void released(String key, String next) {
                released.add(key + " -> " + next);
            }
        };
        signals = new RedisSignals(
                client::connectPubSub,
                "redis (test proxy)",
                Duration.ofSeconds(10),
                events,
                (key, owner, token) -> released.add(key + " granted to " + owner + " under " + token));
    }

    @AfterEach
    void close() {
        proxy.delayReplies(Duration.ZERO);
        signals.close();
        admin.close();
        adminClient.shutdown();
        client.shutdown();
        proxy.close();
    }

    @Test
    void aPublishedReleaseIsReportedWithItsKey() throws Exception {
        try (ReleaseSignals.Subscription subscription = signals.subscribe("signals-key")) {
            admin.sync().publish(RedisKeys.channel("signals-key"), "");
            assertThat(released.poll(10, TimeUnit.SECONDS))
                    .as("[redis] signals: a release published on the key's channel is reported for the key")
                    .isEqualTo("signals-key");
        }
    }

    @Test
    void aReleaseThatNamesTheNextWaiterIsReportedWithItsOwner() throws Exception {
        try (ReleaseSignals.Subscription subscription = signals.subscribe("signals-next")) {
            admin.sync().publish(RedisKeys.channel("signals-next"), "owner-7");
            assertThat(released.poll(10, TimeUnit.SECONDS))
                    .as("[redis] signals: a release that names the queue's next owner is reported with it")
                    .isEqualTo("signals-next -> owner-7");
            admin.sync().publish(RedisKeys.channel("signals-next"), "");
            assertThat(released.poll(10, TimeUnit.SECONDS))
                    .as("[redis] signals: an empty message (nobody queued) is a plain release")
                    .isEqualTo("signals-next");
        }
    }

    @Test
    void aWakeUpOnTheClientsOwnChannelNamesTheOwnerAndAGrantItsToken() throws Exception {
        String key = "signals-wake-ключ";
        String owner = "владелец:1";
        try (ReleaseSignals.Subscription subscription = signals.subscribe(key)) {
            String wake = signals.wakeChannel();
            assertThat(wake)
                    .as("[redis] signals: the wake channel is confirmed")
                    .startsWith("locksmith:wake:");
            int length = owner.getBytes(StandardCharsets.UTF_8).length;
            admin.sync().publish(wake, length + ":" + owner + key);
            assertThat(released.poll(10, TimeUnit.SECONDS))
                    .as("[redis] signals: a wake-up names its owner, whose length counts UTF-8 bytes")
                    .isEqualTo(key + " -> " + owner);
            admin.sync().publish(wake, "=42:" + length + ":" + owner + key);
            assertThat(List.of(released.poll(10, TimeUnit.SECONDS), released.poll(10, TimeUnit.SECONDS)))
                    .as("[redis] signals: a release's grant is handed on with its token before the wake-up")
                    .containsExactly(key + " granted to " + owner + " under 42", key + " -> " + owner);
        }
    }

    @Test
    void aKeySubscribedTwiceKeepsItsSignalsUntilBothSubscriptionsClose() throws Exception {
        ReleaseSignals.Subscription closing = signals.subscribe("signals-twice");
        ReleaseSignals.Subscription next = signals.subscribe("signals-twice"); // a new waiter while the last one leaves
        closing.close();
        closing.close();
        admin.sync().publish(RedisKeys.channel("signals-twice"), "");
        assertThat(released.poll(10, TimeUnit.SECONDS))
                .as("[redis] signals: closing one of two subscriptions of a key (twice) keeps the other's signals")
                .isEqualTo("signals-twice");
        next.close();
        await("[redis] signals: the channel is unsubscribed once its last subscription closes")
                .atMost(Duration.ofSeconds(10))
                .until(() -> admin.sync().pubsubNumsub(RedisKeys.channel("signals-twice")).values().stream()
                                .mapToLong(Long::longValue)
                                .sum()
                        == 0);
    }

    @Test
    void closingASubscriptionDoesNotWaitForAnotherOnesSlowConfirmation() {
        ReleaseSignals.Subscription early = signals.subscribe("signals-early");
        proxy.delayReplies(REPLY_DELAY);
        Thread subscriber = new Thread(() -> signals.subscribe("signals-slow").close(), "slow-subscriber");
        subscriber.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> subscriber.getState() == Thread.State.TERMINATED
                        || subscriber.getState() == Thread.State.TIMED_WAITING
                        || subscriber.getState() == Thread.State.WAITING);

        long start = System.nanoTime();
        early.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took)
                .as("[redis] signals: closing a subscription while another SUBSCRIBE awaits its %s reply", REPLY_DELAY)
                .isLessThan(Duration.ofSeconds(1));
    }
}
