package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The persistent Redis keeps what it acknowledged through a {@code kill -9} and a restart. */
class RedisPersistenceTest {

    @Test
    void keySurvivesKillAndRestart() throws IOException {
        TestServer redis = TestServers.redisWithPersistence();
        String key = "persistence-test:" + System.nanoTime();
        assertThat(Probes.redis(redis.host(), redis.port(), "SET", key, "kept", "PX", "600000"))
                .as("[redis-persistent] SET must be acknowledged")
                .isEqualTo("OK");
        redis.kill();
        redis.restart();
        assertThat(Probes.redis(redis.host(), redis.port(), "GET", key))
                .as("[redis-persistent] a key acknowledged before kill -9 must be there after the restart")
                .isEqualTo("kept");
        assertThat((Long) Probes.redis(redis.host(), redis.port(), "PTTL", key))
                .as("[redis-persistent] the key's expiry must survive too")
                .isBetween(1L, 600_000L);
    }
}
