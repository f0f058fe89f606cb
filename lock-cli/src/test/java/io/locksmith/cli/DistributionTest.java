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
        assertThat(unpacked.exitCode())
                .as("tar xzf %s: %s", archive, unpacked.output())
                .isZero();
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(
                bin.resolve("locksmith"), opt.resolve("locksmith-" + VERSION).resolve("bin/locksmith"));
        Path state = dir.resolve("state");
        Map<String, String> env = Map.of("PATH", bin + ":" + System.getenv("PATH"), "XDG_STATE_HOME", state.toString());

        Locksmith.Result version = shell(env, "locksmith --version");
        assertThat(version.exitCode())
                .as("locksmith --version: %s", version.output())
                .isZero();
        assertThat(version.output().strip()).as("locksmith --version").isEqualTo("locksmith " + VERSION);

        Locksmith.Result demo = shell(env, "locksmith demo --workers 3 --orders 80");
        // the subject here is the archive, not the race, which DemoTest asserts: exit 1 is allowed
        // only for a run without locks that happened to see no duplicates, and the text says so
        long[] without = DemoTest.row(demo.output(), "without locks");
        assertThat(demo.exitCode())
                .as("locksmith demo from the archive, on the SQLite default: %s", demo.output())
                .isEqualTo(without[2] > 0 ? ExitCodes.OK : ExitCodes.DEMO_FAILED);
        assertThat(DemoTest.row(demo.output(), "with locks")[2])
                .as("duplicates with locks: %s", demo.output())
                .isZero();
        assertThat(DemoTest.row(demo.output(), "with locks, one worker stalled past its lease")[3])
                .as("stale writes refused: %s", demo.output())
                .isPositive();
        assertThat(state.resolve("locksmith/locks.db"))
                .as("the default SQLite file, in the user's state directory")
                .isRegularFile();
    }

    @Test
    void theCheckoutsScriptRunsThroughALinkFromAnyDirectory() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(
                bin.resolve("locksmith"),
                Path.of("..", "locksmith").toAbsolutePath().normalize());
        Locksmith.Result version = shell(Map.of("PATH", bin + ":" + System.getenv("PATH")), "locksmith --version");
        assertThat(version.exitCode())
                .as("the checkout's locksmith through a link: %s", version.output())
                .isZero();
        assertThat(version.output().strip())
                .as("the checkout's locksmith --version")
                .endsWith("locksmith " + VERSION);
    }

    /**
     * The checkout's script rebuilds when any module's POM or source is newer than its last build,
     * and only then. Run on a copy of the script in a checkout-shaped directory whose {@code mvnw}
     * only counts its calls and whose {@code java} does nothing, so no real build happens.
     */
    @Test
    void theCheckoutsScriptRebuildsWhenAnyPomOrSourceChanged() throws Exception {
        Path root = Files.createDirectories(dir.resolve("checkout"));
        Files.copy(Path.of("..", "locksmith"), root.resolve("locksmith"));
        Path builds = root.resolve("builds.log");
        executable(root.resolve("mvnw"), "#!/bin/sh\necho built >> '" + builds + "'\n");
        executable(root.resolve("jdk/bin/java"), "#!/bin/sh\nexit 0\n");
        Path classpath =
                Files.createDirectories(root.resolve("lock-cli/target")).resolve("classpath.txt");
        Path modulePom = Files.createDirectories(root.resolve("lock-redis")).resolve("pom.xml");
        Path source =
                Files.createDirectories(root.resolve("lock-api/src/main/java")).resolve("A.java");
        for (Path p : List.of(root.resolve("pom.xml"), modulePom, source, classpath)) {
            Files.writeString(p, "");
        }
        try (java.util.stream.Stream<Path> all = Files.walk(root)) { // directories too: only files may count
            for (Path p : all.toList()) {
                Files.setLastModifiedTime(
                        p, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
            }
        }
        Files.setLastModifiedTime(
                classpath, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 30_000));
        Map<String, String> env = Map.of("JAVA_HOME", root.resolve("jdk").toString());
        String run = "'" + root.resolve("locksmith") + "' --version";

        assertThat(shell(env, run).exitCode()).isZero();
        assertThat(builds)
                .as("nothing changed since the last build: no rebuild")
                .doesNotExist();

        Files.setLastModifiedTime(modulePom, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
        assertThat(shell(env, run).exitCode()).isZero();
        assertThat(Files.readAllLines(builds))
                .as("a module's POM changed: one rebuild")
                .hasSize(1);

        assertThat(shell(env, run).exitCode()).isZero();
        assertThat(Files.readAllLines(builds))
                .as("nothing changed since that rebuild")
                .hasSize(1);

        Files.setLastModifiedTime(
                source, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5_000));
        assertThat(shell(env, run).exitCode()).isZero();
        assertThat(Files.readAllLines(builds))
                .as("a source file changed: another rebuild")
                .hasSize(2);
    }

    private static void executable(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        file.toFile().setExecutable(true);
    }

    /** Runs {@code script} with sh in the test's temporary directory, as a user's shell would. */
    private Locksmith.Result shell(Map<String, String> env, String script) throws Exception {
        Path log = dir.resolve("shell.log");
        ProcessBuilder builder = new ProcessBuilder(List.of("sh", "-c", script))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
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
