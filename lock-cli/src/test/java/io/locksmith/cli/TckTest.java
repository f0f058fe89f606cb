package io.locksmith.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.testing.TestServers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code locksmith tck} runs the kit, rule by rule, against memory and a real Redis. */
class TckTest {

    @Test
    void theKitPassesOnMemory() throws Exception {
        assertKitPasses("memory://cli-tck", null);
    }

    @Test
    void theKitPassesOnRedisPickedByProviderName() throws Exception {
        assertKitPasses(TestServers.redis().uri(), "redis", "--wakeup");
    }

    private static void assertKitPasses(String uri, String provider, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("tck", "--uri", uri, "--lease", "1s"));
        if (provider != null) {
            args.addAll(List.of("--provider", provider));
        }
        args.addAll(List.of(more));
        Locksmith.Result r = Locksmith.run(args.toArray(String[]::new));
        assertThat(r.exitCode())
                .as("[%s] the kit passes: %s", provider, r.output())
                .isZero();
        assertThat(r.output())
                .as("[%s] a line per rule", provider)
                .containsPattern("(?m)^required_mutualExclusion\\w*\\s+passed")
                .containsPattern("(?m)^\\d+ passed, 0 failed, \\d+ skipped$");
    }

    @Test
    void anUnknownProviderNameIsAConfigurationErrorBeforeAnyRuleRuns() throws Exception {
        Locksmith.Result r = Locksmith.run("tck", "--uri", "memory://cli-tck", "--provider", "no-such-provider");
        assertThat(r.exitCode()).as(r.output()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.output())
                .as("names the provider and those found")
                .contains("no-such-provider")
                .contains("memory")
                .doesNotContain("passed,");
    }
}
