package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.BackendScheduler;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.HeldLeases;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Lettuce's URIs as built from the context's parsed address: what Lettuce itself made of the same
 * URIs before (so users' URIs mean what they meant), and the Cluster's seeds, which Lettuce's
 * parser does not take. No server is needed.
 */
class RedisUrisTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "redis://cache",
                "redis://cache:6380",
                "redis://cache:6380/3",
                "redis://bare-secret@cache",
                "redis://:colon-secret@cache:6380/1",
                "redis://acl-user:acl%40secret@cache",
                "rediss://user:pw@cache:6390",
                "redis://[::1]:6380/2",
                "redis://user-only:@cache/",
                "redis-sentinel://s1,s2:26380,s3:26381/4#mymaster",
                "redis-sentinel://sentinel-secret@s1:26379#group",
                "rediss-sentinel://user:pw@s1,s2#group"
            })
    void aServerOrSentinelUriMeansWhatLettuceMadeOfIt(String location) {
        RedisURI ours = RedisUris.standalone(context(location, Map.of()), RedisSettings.DEFAULTS);
        RedisURI lettuces = RedisURI.create(location);
        assertThat(describe(ours))
                .as(
                        "[redis] URI %s: host, port, database, TLS, credentials, sentinels and master"
                                + " as Lettuce's own parser gives them",
                        location)
                .isEqualTo(describe(lettuces));
    }

    @Test
    void aClusterUriGivesOneSeedPerHostEachWithTheCredentialsAndTimeout() {
        List<RedisURI> seeds = RedisUris.cluster(
                context("rediss-cluster://app:s%3Acret@n1:7000,n2,[::1]:7002", Map.of("timeout", "2s")),
                new RedisSettings(Duration.ofSeconds(2), 0, Duration.ofSeconds(1)));
        assertThat(seeds.stream().map(s -> s.getHost() + " " + s.getPort()).toList())
                .as("[redis] cluster URI: one seed per host, 6379 where none is given")
                .containsExactly("n1 7000", "n2 6379", "::1 7002");
        assertThat(seeds)
                .as("[redis] cluster URI: every seed has the user, the decoded password, TLS and the timeout")
                .allSatisfy(s -> {
                    assertThat(credentials(s)).isEqualTo("app/s:cret");
                    assertThat(s.isSsl()).isTrue();
                    assertThat(s.getTimeout()).isEqualTo(Duration.ofSeconds(2));
                });
    }

    @Test
    void optionsOverrideTheUriAndAreChecked() {
        RedisURI uri = RedisUris.standalone(
                context(
                        "redis-sentinel://s1/2#from-fragment",
                        Map.of(
                                "database",
                                "5",
                                "sentinelMasterId",
                                "from-option",
                                "clientName",
                                "app-1",
                                "verifyPeer",
                                "false")),
                RedisSettings.DEFAULTS);
        assertThat(uri.getDatabase())
                .as("[redis] option database: overrides the path")
                .isEqualTo(5);
        assertThat(uri.getSentinelMasterId())
                .as("[redis] option sentinelMasterId: overrides the fragment")
                .isEqualTo("from-option");
        assertThat(uri.getClientName()).as("[redis] option clientName").isEqualTo("app-1");
        assertThat(uri.isVerifyPeer()).as("[redis] option verifyPeer=false").isFalse();
        assertThatThrownBy(() -> RedisUris.standalone(
                        context("rediss://:pw-secret@cache", Map.of("verifyPeer", "no")), RedisSettings.DEFAULTS))
                .as("[redis] option verifyPeer: anything but true or false is refused, not read as false")
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'verifyPeer'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pw-secret"));
    }

    @Test
    void malformedUrisAreRefusedNamingTheUriWithoutItsPassword() {
        for (String location : List.of(
                "redis://:pw-secret@cache:notaport",
                "redis://:pw-secret@cache/not-a-number",
                "redis://:pw-secret@cache1,cache2",
                "redis-sentinel://:pw-secret@s1,s2",
                "redis://:pw-secret@/0")) {
            assertThatThrownBy(() -> RedisUris.standalone(context(location, Map.of()), RedisSettings.DEFAULTS))
                    .as("[redis] malformed URI %s", location)
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("Redis URI")
                    .hasMessageContaining(":****@")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pw-secret"));
        }
    }

    private static String describe(RedisURI uri) {
        // Lettuce's parser keeps an IPv6 host's brackets; both forms connect
        String host = uri.getHost() == null ? null : uri.getHost().replaceAll("^\\[(.*)]$", "$1");
        return "host=" + host + " port=" + uri.getPort() + " database=" + uri.getDatabase() + " ssl="
                + uri.isSsl() + " credentials=" + credentials(uri) + " master=" + uri.getSentinelMasterId()
                + " sentinels="
                + uri.getSentinels().stream()
                        .map(s -> s.getHost() + ":" + s.getPort() + "/" + credentials(s) + "/" + s.isSsl())
                        .collect(Collectors.joining(","));
    }

    private static String credentials(RedisURI uri) {
        RedisCredentials c = uri.getCredentialsProvider() == null
                ? null
                : uri.getCredentialsProvider().resolveCredentials().block();
        if (c == null || (!c.hasUsername() && !c.hasPassword())) {
            return "none";
        }
        return (c.hasUsername() ? c.getUsername() : "") + "/" + (c.hasPassword() ? new String(c.getPassword()) : "");
    }

    private static BackendContext context(String location, Map<String, String> options) {
        return BackendContext.builder(location.substring(0, location.indexOf(':')), location)
                .options(options)
                .events(RedisTestBackends.IGNORED)
                .scheduler(NO_SCHEDULER)
                .heldLeases(NO_LEASES)
                .build();
    }

    private static final BackendScheduler NO_SCHEDULER = new BackendScheduler() {
        @Override
        public Scheduled schedule(Runnable task, Duration delay) {
            throw new UnsupportedOperationException("building URIs schedules nothing");
        }

        @Override
        public Scheduled every(Runnable task, Duration period) {
            throw new UnsupportedOperationException("building URIs schedules nothing");
        }

        @Override
        public void execute(Runnable task) {
            throw new UnsupportedOperationException("building URIs schedules nothing");
        }
    };

    private static final HeldLeases NO_LEASES = new HeldLeases() {
        @Override
        public List<HeldLease> on(String key) {
            return List.of();
        }

        @Override
        public List<HeldLease> all() {
            return List.of();
        }
    };
}
