package io.locksmith.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.testing.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code locksmith run} stopped by a signal stops its command and releases the lock at once. */
class RunSignalTest {

    @TempDir
    Path dir;

    @Test
    void sigtermStopsTheCommandAndReleasesTheLockOnSqlite() throws Exception {
        assertSigtermReleases("jdbc:sqlite:" + dir.resolve("locks.db"));
    }

    @Test
    void sigtermStopsTheCommandAndReleasesTheLockOnRedis() throws Exception {
        assertSigtermReleases(TestServers.redis().uri());
    }

    private void assertSigtermReleases(String uri) throws Exception {
        Path log = dir.resolve("held.log");
        // the lease is long, so only a release (not an expiry) can free the lock within the test
        Process run = Locksmith.start(
                log,
                java.util.Map.of(),
                "run",
                "signalled",
                "--lease",
                "5m",
                "--uri",
                uri,
                "--",
                "sh",
                "-c",
                "trap 'echo command got SIGTERM; exit 3' TERM; echo holding; while :; do sleep 1; done");
        Locksmith.awaitOutput(log, "holding", run);
        run.destroy(); // SIGTERM, as kill(1), systemd or a CI runner send it
        assertThat(run.waitFor(60, TimeUnit.SECONDS))
                .as("run exits after SIGTERM: %s", Files.readString(log))
                .isTrue();
        assertThat(run.exitValue())
                .as("run exits 128+15 after SIGTERM: %s", Files.readString(log))
                .isEqualTo(143);
        Locksmith.Result next =
                Locksmith.run("run", "signalled", "--wait", "0", "--uri", uri, "--", "echo", "next ran");
        assertThat(next.exitCode())
                .as("the lock was released: the next run --wait 0 gets it at once: %s", next.output())
                .isZero();
        assertThat(next.output()).contains("next ran");
        assertThat(Files.readString(log))
                .as("the command was sent SIGTERM, and ended before run did")
                .contains("command got SIGTERM");
    }
}
