package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.testing.TcpProxy;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Release signals on a pub/sub connection whose replies are slow (a {@link TcpProxy} holds them
 * back, below the command timeout): nothing that closes a subscription — which the client's
 * timer thread does when a wait's deadline passes — may wait for another subscription's reply.
 */
class RedisSignalsTest {

    private static final Duration REPLY_DELAY = Duration.ofSeconds(5);

    private TestServer server;
    private TcpProxy proxy;
    private RedisClient client;
    private RedisSignals signals;

    @BeforeEach
    void open() throws Exception {
        server = TestServers.redis();
        proxy = new TcpProxy(server.host(), server.port());
        RedisURI uri = RedisURI.create("redis://" + proxy.address());
        uri.setTimeout(Duration.ofSeconds(10));
        client = RedisClient.create(uri);
        client.setOptions(RedisLockProvider.options(new RedisSettings(Duration.ofSeconds(10), 0, Duration.ofSeconds(1))));
        signals = new RedisSignals(client::connectPubSub, "redis (test proxy)", Duration.ofSeconds(10));
    }

    @AfterEach
    void close() {
        proxy.delayReplies(Duration.ZERO);
        signals.close();
        client.shutdown();
        proxy.close();
    }

    @Test
    void closingASubscriptionDoesNotWaitForAnotherOnesSlowConfirmation() {
        ReleaseSignals.Subscription early = signals.subscribe("signals-early", () -> {});
        proxy.delayReplies(REPLY_DELAY);
        Thread subscriber = new Thread(() -> signals.subscribe("signals-slow", () -> {}).close(), "slow-subscriber");
        subscriber.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> subscriber.getState() == Thread.State.TERMINATED
                || subscriber.getState() == Thread.State.TIMED_WAITING || subscriber.getState() == Thread.State.WAITING);

        long start = System.nanoTime();
        early.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).as("[redis] signals: closing a subscription while another SUBSCRIBE awaits its %s reply",
                REPLY_DELAY).isLessThan(Duration.ofSeconds(1));
    }
}
