package io.locksmith.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the command does with input it must refuse or must accept, and the exit codes docs/cli.md gives. */
class InputTest {

    @TempDir
    Path dir;

    private String sqlite() {
        return "jdbc:sqlite:" + dir.resolve("locks.db");
    }

    @Test
    void anEmptyUriIsRefusedInsteadOfFallingBackToTheLocalDefault() throws Exception {
        // a cron line's --uri "$LOCKS" with LOCKS unset: every machine would take its own local lock
        Locksmith.Result option = Locksmith.run("run", "job", "--uri", "", "--", "echo", "ran");
        assertThat(option.exitCode())
                .as("--uri '' exits 78: %s", option.output())
                .isEqualTo(ExitCodes.CONFIG);
        assertThat(option.output())
                .as("--uri '' is refused and says why")
                .contains("--uri is empty")
                .doesNotContain("ran");
        Locksmith.Result variable = Locksmith.run(Map.of("LOCKSMITH_URI", " "), "run", "job", "--", "echo", "ran");
        assertThat(variable.exitCode())
                .as("LOCKSMITH_URI=' ' exits 78: %s", variable.output())
                .isEqualTo(ExitCodes.CONFIG);
        assertThat(variable.output())
                .as("a blank LOCKSMITH_URI is refused and says why")
                .contains("LOCKSMITH_URI is set but blank")
                .doesNotContain("ran");
    }

    @Test
    void theOnLostPolicyIsReadInAnyCase() throws Exception {
        for (String policy : List.of("warn", "WARN", "Terminate")) {
            Locksmith.Result r = Locksmith.run("run", "job", "--on-lost", policy, "--uri", sqlite(), "--", "true");
            assertThat(r.exitCode())
                    .as("--on-lost %s is accepted: %s", policy, r.output())
                    .isZero();
        }
    }

    @Test
    void aBackendsHintIsPrintedAsTheLibraryWroteIt() throws Exception {
        Locksmith.Result r = Locksmith.run("status", "x", "--uri", "etcd:");
        assertThat(r.exitCode()).as(r.output()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.output())
                .as("the etcd provider's hint, not masked a second time")
                .contains("etcd://[user:password@]host1:2379");
    }

    @Test
    void aBadNameOrLeaseIsABadArgumentLikeAnUnparsableDuration() throws Exception {
        String tooLong = "n".repeat(1025);
        for (String[] args : List.of(
                new String[] {"run", "", "--uri", sqlite(), "--", "true"},
                new String[] {"run", tooLong, "--uri", sqlite(), "--", "true"},
                new String[] {"run", "x", "--lease", "0", "--uri", sqlite(), "--", "true"},
                new String[] {"status", "", "--uri", sqlite()},
                new String[] {"demo", "--workers", "1", "--uri", "memory:"})) {
            Locksmith.Result r = Locksmith.run(args);
            String shown = String.join(" ", args).replace(tooLong, "n×1025");
            assertThat(r.exitCode()).as("%s exits 2: %s", shown, r.output()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.output()).as("%s prints the usage", shown).contains("Usage:");
        }
    }

    @Test
    void versionNamesTheBuiltVersion() throws Exception {
        Locksmith.Result r = Locksmith.run("--version");
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output().strip())
                .as("--version")
                .isEqualTo("locksmith " + System.getProperty("locksmith.version"));
    }
}
