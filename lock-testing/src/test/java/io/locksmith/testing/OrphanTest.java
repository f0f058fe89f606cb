package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A test JVM killed with SIGKILL runs no shutdown hook; its servers must still go, with their
 * data. A child JVM starts Redis and PostgreSQL (a server with child processes), is killed, and
 * the watchdogs must clean up.
 */
class OrphanTest {

    /** The child JVM: starts servers, reports them, and waits to be killed. */
    public static void main(String[] args) throws IOException {
        LocalServer redis = (LocalServer) TestServers.redis();
        LocalServer postgres = (LocalServer) TestServers.postgres();
        System.out.println(
                "SERVERS " + redis.pid() + " " + postgres.pid() + " " + redis.directory() + " " + postgres.directory());
        System.out.flush();
        System.in.read(); // until the test kills this JVM
    }

    @Test
    void serversDieWithAKilledJvm() throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", classPath, OrphanTest.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            String[] report = awaitReport(child);
            List<Long> pids = new ArrayList<>(List.of(Long.parseLong(report[1]), Long.parseLong(report[2])));
            ProcessHandle.of(pids.get(1)).orElseThrow().descendants().forEach(p -> pids.add(p.pid()));
            List<Path> dirs = List.of(Path.of(report[3]), Path.of(report[4]));
            assertThat(pids).as("redis, and postgres with its child processes").hasSizeGreaterThan(3);

            new ProcessBuilder("kill", "-KILL", Long.toString(child.pid()))
                    .start()
                    .waitFor();
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();

            Polls.until(Duration.ofSeconds(20), () -> {
                // a zombie counts as alive here: gone means reaped
                assertThat(pids)
                        .as("server processes after the JVM died")
                        .noneMatch(pid -> ProcessHandle.of(pid)
                                .map(ProcessHandle::isAlive)
                                .orElse(false));
                assertThat(dirs).as("data directories after the JVM died").noneMatch(Files::exists);
                assertThat(dirs.get(0).getParent())
                        .as("the JVM's temporary root")
                        .doesNotExist();
            });
        } finally {
            child.destroyForcibly();
        }
    }

    private static String[] awaitReport(Process child) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("SERVERS ")) {
                return line.split(" ");
            }
        }
        throw new AssertionError("the child JVM exited before reporting its servers (exit " + child.exitValue() + ")");
    }
}
