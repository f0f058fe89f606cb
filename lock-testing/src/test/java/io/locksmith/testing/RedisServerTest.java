package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;

class RedisServerTest extends ServerContract {

    private static final RedisClient CLIENT = RedisClient.create();

    @AfterAll
    static void closeClient() {
        CLIENT.shutdown(0, 5, TimeUnit.SECONDS);
    }

    @Override
    TestServer server() {
        return TestServers.redis();
    }

    @Override
    String uriPrefix() {
        return "redis://127.0.0.1:";
    }

    @Override
    void ping(TestServer server) {
        RedisURI uri = RedisURI.create(server.uri());
        uri.setTimeout(Duration.ofSeconds(5)); // a first connection on a loaded machine can take a second
        try (StatefulRedisConnection<String, String> connection = CLIENT.connect(uri)) {
            assertThat(connection.sync().ping()).isEqualTo("PONG");
        }
    }
}
