package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestServersExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the failover changes the roles, so it runs last
class RedisSentinelGroupTest {

    private static final RedisClient CLIENT = RedisClient.create();

    @AfterAll
    static void closeClient() {
        CLIENT.shutdown(0, 5, TimeUnit.SECONDS);
    }

    @Test
    @Order(1)
    void sentinelReportsTheMaster(RedisSentinelGroup group) {
        assertThat(group.masterName()).isEqualTo("mymaster");
        assertThat(group.sentinelUri())
                .startsWith("redis-sentinel://127.0.0.1:")
                .endsWith("#mymaster");
        RedisURI sentinel =
                RedisURI.create("redis://127.0.0.1:" + group.sentinel().port());
        sentinel.setTimeout(Duration.ofSeconds(2));
        try (StatefulRedisSentinelConnection<String, String> connection = CLIENT.connectSentinel(sentinel)) {
            SocketAddress master = connection.sync().getMasterAddrByName(group.masterName());
            assertThat(master.toString()).endsWith(":" + group.master().port());
        }
    }

    @Test
    @Order(2)
    void masterAndSentinelUriReachTheSameServer(RedisSentinelGroup group) {
        RedisURI viaSentinel = RedisURI.create(group.sentinelUri());
        viaSentinel.setTimeout(Duration.ofSeconds(2));
        try (var connection = CLIENT.connect(viaSentinel)) {
            assertThat(connection.sync().info("server"))
                    .contains("tcp_port:" + group.master().port());
        }
        RedisURI replica = RedisURI.create(group.replica().uri());
        try (var connection = CLIENT.connect(replica)) {
            assertThat(connection.sync().info("replication"))
                    .contains("role:slave")
                    .contains("master_port:" + group.master().port());
        }
    }

    @Test
    @Order(3)
    void sentinelPromotesTheReplicaWhenTheMasterIsKilled(RedisSentinelGroup group) throws Exception {
        RedisURI sentinel =
                RedisURI.create("redis://127.0.0.1:" + group.sentinel().port());
        sentinel.setTimeout(Duration.ofSeconds(2));
        try (StatefulRedisSentinelConnection<String, String> connection = CLIENT.connectSentinel(sentinel)) {
            group.master().kill();
            // down-after-milliseconds is 1 s; the election and promotion take a few more
            Polls.until(
                    Duration.ofSeconds(30),
                    () -> assertThat(connection
                                    .sync()
                                    .getMasterAddrByName(group.masterName())
                                    .toString())
                            .endsWith(":" + group.replica().port()));
        }
    }
}
