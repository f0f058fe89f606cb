package io.locksmith.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command as users install it: the archive unpacked outside the checkout, linked onto the
 * PATH, run from another directory; and the checkout's {@code ./locksmith} through a link.
 */
class DistributionTest {

    private static final String VERSION = System.getProperty("locksmith.version");

    @TempDir
    Path dir;

    @Test
    void theUnpackedArchiveRunsThroughALinkOnThePathFromAnyDirectory() throws Exception {
        Path archive = Path.of(System.getProperty("locksmith.archive"));
        Path opt = Files.createDirectories(dir.resolve("opt"));
        Locksmith.Result unpacked = shell(Map.of(), "tar xzf '" + archive + "' -C '" + opt + "'");
        assertThat(unpacked.exitCode()).as("tar xzf %s: %s", archive, unpacked.output()).isZero();
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("locksmith"), opt.resolve("locksmith-" + VERSION).resolve("bin/locksmith"));
        Path state = dir.resolve("state");
        Map<String, String> env = Map.of("PATH", bin + ":" + System.getenv("PATH"), "XDG_STATE_HOME", state.toString());

        Locksmith.Result version = shell(env, "locksmith --version");
        assertThat(version.exitCode()).as("locksmith --version: %s", version.output()).isZero();
        assertThat(version.output().strip()).as("locksmith --version").isEqualTo("locksmith " + VERSION);

        Locksmith.Result demo = shell(env, "locksmith demo --workers 3 --orders 80");
        // the subject here is the archive, not the race, which DemoTest asserts: exit 1 is allowed
        // only for a run without locks that happened to see no duplicates, and the text says so
        long[] without = DemoTest.row(demo.output(), "without locks");
        assertThat(demo.exitCode()).as("locksmith demo from the archive, on the SQLite default: %s", demo.output())
                .isEqualTo(without[2] > 0 ? ExitCodes.OK : ExitCodes.DEMO_FAILED);
        assertThat(DemoTest.row(demo.output(), "with locks")[2]).as("duplicates with locks: %s", demo.output()).isZero();
        assertThat(DemoTest.row(demo.output(), "with locks, one worker stalled past its lease")[3])
                .as("stale writes refused: %s", demo.output()).isPositive();
        assertThat(state.resolve("locksmith/locks.db")).as("the default SQLite file, in the user's state directory")
                .isRegularFile();
    }

    @Test
    void theCheckoutsScriptRunsThroughALinkFromAnyDirectory() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("locksmith"), Path.of("..", "locksmith").toAbsolutePath().normalize());
        Locksmith.Result version = shell(Map.of("PATH", bin + ":" + System.getenv("PATH")), "locksmith --version");
        assertThat(version.exitCode()).as("the checkout's locksmith through a link: %s", version.output()).isZero();
        assertThat(version.output().strip()).as("the checkout's locksmith --version").endsWith("locksmith " + VERSION);
    }

    /** Runs {@code script} with sh in the test's temporary directory, as a user's shell would. */
    private Locksmith.Result shell(Map<String, String> env, String script) throws Exception {
        Path log = dir.resolve("shell.log");
        ProcessBuilder builder = new ProcessBuilder(List.of("sh", "-c", script)).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().remove("LOCKSMITH_URI");
        builder.environment().putAll(env);
        Process p = builder.start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(script + " did not finish in 3 minutes:\n" + Files.readString(log));
        }
        return new Locksmith.Result(p.exitValue(), Files.readString(log));
    }
}
