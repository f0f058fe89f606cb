package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.RenewOutcome;
import io.locksmith.spi.Ticker;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Renewal on a Cluster is one script call per slot; a call that fails must fail only its own
 * slot's leases. Here the batching runs as on a Cluster over one real server (the link says it
 * is a Cluster), and one slot's call fails for real: its lock key was replaced by a hash, so the
 * script's GET gets WRONGTYPE, as a call to an unreachable shard gets a timeout.
 */
class RedisRenewBatchTest {

    private TestServer server;
    private RedisClient client;
    private StatefulRedisConnection<String, String> admin;
    private RedisBackend backend;

    @BeforeEach
    void open() {
        server = TestServers.redis();
        client = RedisClient.create(server.uri());
        admin = client.connect();
        StatefulRedisConnection<String, String> c = client.connect();
        RedisLink bySlot = new RedisLink(c, c.sync(), c.async(), c.sync(), client::connectPubSub, () -> {}, true);
        backend = new RedisBackend(
                bySlot,
                "redis (renewal batched by slot)",
                RedisSettings.DEFAULTS,
                RedisTestBackends.IGNORED,
                Ticker.SYSTEM);
    }

    @AfterEach
    void close() {
        backend.close();
        admin.close();
        client.shutdown();
    }

    @Test
    void oneSlotsFailingCallFailsOnlyItsOwnLeases() {
        AcquireRequest healthy = RedisTestBackends.request("batch-healthy", "healthy-owner");
        AcquireRequest broken = RedisTestBackends.request("batch-broken", "broken-owner");
        assertThat(SlotHash.getSlot(RedisKeys.lock("batch-healthy")))
                .as("[redis] test set-up: the two locks live in different slots")
                .isNotEqualTo(SlotHash.getSlot(RedisKeys.lock("batch-broken")));
        long healthyToken = RedisTestBackends.grant(backend, healthy);
        long brokenToken = RedisTestBackends.grant(backend, broken);
        admin.sync().pexpire(RedisKeys.lock("batch-healthy"), 5_000);
        breakSlotOf("batch-broken");

        List<RenewOutcome> outcomes = backend.renew(
                List.of(RedisTestBackends.lease(broken, brokenToken), RedisTestBackends.lease(healthy, healthyToken)));

        assertThat(outcomes)
                .as("[redis] renewal per slot: the failing slot's lease fails, the other is renewed")
                .containsExactly(RenewOutcome.FAILED, RenewOutcome.RENEWED);
        assertThat(admin.sync().pttl(RedisKeys.lock("batch-healthy")))
                .as("[redis] renewal per slot: the healthy slot's lease was extended on the server")
                .isGreaterThan(25_000L);
    }

    @Test
    void whenEverySlotsCallFailsRenewalFailsWithTheServersError() {
        AcquireRequest broken = RedisTestBackends.request("batch-all-broken", "broken-owner");
        long token = RedisTestBackends.grant(backend, broken);
        breakSlotOf("batch-all-broken");
        assertThatThrownBy(() -> backend.renew(List.of(RedisTestBackends.lease(broken, token))))
                .as("[redis] renewal per slot: nothing renewed is one error naming the lock")
                .isInstanceOf(LockBackendException.class)
                .hasMessageContaining("batch-all-broken")
                .hasMessageContaining("WRONGTYPE");
    }

    /** Replaces the lock key by a hash, so that every script call touching it fails on the server. */
    private void breakSlotOf(String key) {
        admin.sync().del(RedisKeys.lock(key));
        admin.sync().hset(RedisKeys.lock(key), "not", "a lock");
    }
}
