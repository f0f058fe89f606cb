package io.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.Durations;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Bad input gets a clear error at once: never a hang, never a silent default. */
class ArgumentsTest {

    private final LockClient client = LockClient.of(new TestBackend()::attach, LockOptions.defaults());

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void lockNames() {
        assertThatThrownBy(() -> client.lock(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("lock name");
        assertThatThrownBy(() -> client.lock(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> client.lock("x".repeat(1025)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1024")
                .hasMessageContaining("1025");
        assertThatThrownBy(() -> client.lock("bad\uD800name"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("surrogate");
        assertThat(client.lock("x".repeat(1024)).name()).hasSize(1024);
        String emoji = "\uD83D\uDD12".repeat(1024); // 1,024 code points, 2,048 chars
        assertThat(client.lock(emoji).name()).isEqualTo(emoji);
        assertThat(client.lock("Zürich / 東京 : * ? \\ % .. ' \"").name()).contains("東京");
    }

    @Test
    void durations() {
        DistributedLock lock = client.lock("a");
        assertThatThrownBy(() -> lock.acquire(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.acquire(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait must not be negative");
        assertThatThrownBy(() -> lock.acquireAsync(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> lock.tryAcquire(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> lock.withLease(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease must be positive");
        assertThatThrownBy(() -> lock.withLease(Duration.ofSeconds(-3))).isInstanceOf(IllegalArgumentException.class);
        try (var h = lock.acquire(Duration.ZERO)) {
            assertThatThrownBy(() -> h.extend(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> h.onLost(null)).isInstanceOf(NullPointerException.class);
        }
        assertThatThrownBy(() -> LockOptions.builder()
                        .lease(Duration.ofSeconds(1))
                        .renewInterval(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("renew-interval");
    }

    @Test
    void durationText() {
        assertThat(Durations.parse("lease", "250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Durations.parse("lease", "30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("lease", "2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("lease", "PT1M30S")).isEqualTo(Duration.ofSeconds(90));
        assertThatThrownBy(() -> Durations.parse("lease", "30"))
                .hasMessageContaining("'lease'")
                .hasMessageContaining("'30'");
        assertThatThrownBy(() -> Durations.parse("lease", "1.5s")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Durations.format(Duration.ofMillis(300))).isEqualTo("300ms");
        assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
    }
}
