package io.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockOptions;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Discovery, URI and option parsing, and the errors a user sees when configuration is wrong. */
class ConfigurationTest {

    @Test
    void noProviderNamesTheSchemeWhatWasFoundAndTheArtifactToAdd() {
        assertThatThrownBy(() -> LockClient.open("memory:"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'memory'")
                .hasMessageContaining("io.locksmith:lock-memory")
                .hasMessageContaining("scripted")
                .hasMessageContaining("failed to load");
        assertThatThrownBy(() -> LockClient.open("redis://localhost:6379"))
                .hasMessageContaining("'redis'")
                .hasMessageContaining("io.locksmith:lock-redis");
    }

    @Test
    void aProviderThatFailsToLoadDoesNotStopTheOthers() {
        try (LockClient c = LockClient.open("test:")) {
            assertThat(c.backend()).isEqualTo("test://backend");
        }
    }

    @Test
    void twoProvidersForOneSchemeIsAnErrorNamingBoth() {
        assertThatThrownBy(() -> LockClient.open("dup:"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("dup-one")
                .hasMessageContaining("dup-two")
                .hasMessageContaining(ProviderRegistry.FORCE_PROPERTY);
    }

    @Test
    void aSystemPropertyForcesAProvider() {
        System.setProperty(ProviderRegistry.FORCE_PROPERTY, "dup-two");
        try (LockClient c = LockClient.open("dup:")) {
            assertThat(c.backend()).isEqualTo("test://backend");
        } finally {
            System.clearProperty(ProviderRegistry.FORCE_PROPERTY);
        }
        System.setProperty(ProviderRegistry.FORCE_PROPERTY, "nope");
        try {
            assertThatThrownBy(() -> LockClient.open("dup:"))
                    .hasMessageContaining("'nope'")
                    .hasMessageContaining("dup-one");
        } finally {
            System.clearProperty(ProviderRegistry.FORCE_PROPERTY);
        }
    }

    @Test
    void queryOptionsAreSplitBetweenLocksmithAndTheProvider() {
        try (LockClient c = LockClient.open("test://h:1/x?lease=10s&prefix=billing&user=app&renew=false#frag")) {
            assertThat(c.options().lease()).isEqualTo(Duration.ofSeconds(10));
            assertThat(c.options().prefix()).isEqualTo("billing");
            assertThat(c.options().autoRenew()).isFalse();
            assertThat(TestProviders.Scripted.LAST.get().location()).isEqualTo("test://h:1/x#frag");
            assertThat(TestProviders.Scripted.LAST.get().options()).containsExactlyEntriesOf(Map.of("user", "app"));
        }
    }

    @Test
    void mapAndPropertiesOptionsAreAccepted() {
        Properties p = new Properties();
        p.setProperty("lease", "5s");
        p.setProperty("pool-size", "4");
        try (LockClient c = LockClient.open("test:", p)) {
            assertThat(c.options().lease()).isEqualTo(Duration.ofSeconds(5));
            assertThat(TestProviders.Scripted.LAST.get().options()).containsEntry("pool-size", "4");
        }
        try (LockClient c = LockClient.open(
                "test:?renew=false",
                LockOptions.builder().lease(Duration.ofSeconds(7)).build())) {
            assertThat(c.options().lease()).isEqualTo(Duration.ofSeconds(7));
            assertThat(c.options().autoRenew()).isFalse();
        }
        assertThatThrownBy(() -> LockClient.open("test:?lease=5s", Map.of("lease", "6s")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'lease'")
                .hasMessageContaining("both");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "localhost:6379", "no scheme", "1abc:x", "//host"})
    void malformedUrisAreRejected(String uri) {
        assertThatThrownBy(() -> LockClient.open(uri))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("URI");
    }

    @Test
    void badOptionsAreRejectedWithTheNameAndTheValue() {
        assertThatThrownBy(() -> LockClient.open("test:?leese=10s"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'leese'")
                .hasMessageContaining("lease")
                .hasMessageContaining("pool-size");
        assertThatThrownBy(() -> LockClient.open("test:?lease=ten"))
                .hasMessageContaining("'lease'")
                .hasMessageContaining("'ten'");
        assertThatThrownBy(() -> LockClient.open("test:?lease=0s")).hasMessageContaining("lease must be positive");
        assertThatThrownBy(() -> LockClient.open("test:?lease=-5s")).isInstanceOf(LockConfigurationException.class);
        assertThatThrownBy(() -> LockClient.open("test:?renew=maybe")).hasMessageContaining("'maybe'");
        assertThatThrownBy(() -> LockClient.open("test:?lease=1s&renew-interval=2s"))
                .hasMessageContaining("shorter than the lease");
        assertThatThrownBy(() -> LockClient.open("test:?lease=1s&lease=2s")).hasMessageContaining("twice");
        assertThatThrownBy(() -> LockClient.open("test:?lease")).hasMessageContaining("name=value");
        assertThatThrownBy(() -> LockClient.open("test:?prefix=a:b")).hasMessageContaining("prefix");
        assertThatThrownBy(() -> LockClient.open("test:?backoff-min=2s&backoff-max=1s"))
                .hasMessageContaining("backoff-max");
        assertThatThrownBy(() -> LockClient.open("test:", Map.of("bogus", "1"))).hasMessageContaining("'bogus'");
    }

    @Test
    void credentialsNeverAppearInMessagesOrToString() {
        String secret = "s3cr3t-pw";
        assertThatThrownBy(() -> LockClient.open("test://app:" + secret + "@host/x?password=" + secret + "&leese=1"))
                .satisfies(
                        e -> assertThat(e.getMessage()).doesNotContain(secret).contains("app:****@host"));
        assertThatThrownBy(() -> LockClient.open("redis://" + secret + "@host:6379"))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(secret));
        assertThatThrownBy(() -> LockClient.open("nosuch://u:" + secret + "@h?token=" + secret))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(secret));
        try (LockClient c = LockClient.open("test://h", Map.of("password", secret, "user", "app"))) {
            assertThat(c.toString()).doesNotContain(secret);
            assertThat(TestProviders.Scripted.LAST.get().toString())
                    .doesNotContain(secret)
                    .contains("user=app");
        }
    }

    @Test
    void theEnvironmentIsReadFromTheSystemProperty() {
        System.setProperty(ClientFactory.URI_PROPERTY, "test:?lease=3s");
        try (LockClient c = LockClient.fromEnvironment()) {
            assertThat(c.options().lease()).isEqualTo(Duration.ofSeconds(3));
        } finally {
            System.clearProperty(ClientFactory.URI_PROPERTY);
        }
        if (System.getenv(ClientFactory.URI_VARIABLE) == null) {
            assertThatThrownBy(LockClient::fromEnvironment)
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("locksmith.uri")
                    .hasMessageContaining("LOCKSMITH_URI");
        }
    }
}
