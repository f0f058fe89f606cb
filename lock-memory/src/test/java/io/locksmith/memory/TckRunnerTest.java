package io.locksmith.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The kit's runner, as a third-party provider author runs it: a separate JVM, a jar and a URI. */
class TckRunnerTest {

    @Test
    void runnerPassesTheMemoryBackendAndPrintsTheTable() throws Exception {
        Path runner = runnerJar();
        Path log = Files.createTempFile("tck-runner", ".log");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        runner.toString(),
                        "--provider",
                        Path.of("target/classes").toAbsolutePath().toString(),
                        "--uri",
                        "memory://tck",
                        "--wakeup")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).as("the runner finished").isTrue();
        String out = Files.readString(log);
        assertThat(p.exitValue()).as("exit code; output:%n%s", out).isZero();
        assertThat(out)
                .containsPattern("required_mutualExclusionUnderContention\\s+passed")
                .containsPattern("required_unusualNamesAreDistinctAndUsable\\s+passed")
                .contains("optional_waitersAreGrantedInArrivalOrder")
                .containsPattern("\\d+ passed, 0 failed, \\d+ skipped");
        assertThat(out)
                .as("rules needing fault hooks are reported as skipped, with the reason")
                .containsPattern("required_aCrashedHoldersLockIsFreeWithinItsLeasePlusAMargin\\s+skipped\\s+.*no hook");
    }

    @Test
    void runnerRejectsBadArgumentsWithCodeTwo() throws Exception {
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        runnerJar().toString(),
                        "--lease")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(out).contains("--lease needs a value").contains("usage:");
    }

    private static Path runnerJar() throws IOException {
        Path target = Path.of("../lock-tck/target");
        List<Path> jars;
        try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
            jars = files.filter(f -> f.getFileName().toString().endsWith("-runner.jar"))
                    .toList();
        }
        assertThat(jars)
                .as("the runner jar; build it with ./mvnw -pl lock-tck package")
                .hasSize(1);
        return jars.get(0);
    }
}
