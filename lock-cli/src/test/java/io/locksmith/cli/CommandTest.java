package io.locksmith.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code locksmith} command, run as a process: flock semantics, exit codes, status, usage errors. */
class CommandTest {

    @TempDir
    Path dir;

    private String sqlite() {
        return "jdbc:sqlite:" + dir.resolve("locks.db");
    }

    @Test
    void twoRunsOnOneNameNeverOverlapOnTheDefaultKindOfBackend() throws Exception {
        assertSerialised(sqlite());
    }

    @Test
    void twoRunsOnOneNameNeverOverlapOnRedis() throws Exception {
        assertSerialised(TestServers.redis().uri());
    }

    private void assertSerialised(String uri) throws Exception {
        String script = "echo start $(date +%s%N) $LOCKSMITH_FENCING_TOKEN; sleep 1; echo end $(date +%s%N)";
        Path first = dir.resolve("first.log");
        Path second = dir.resolve("second.log");
        Process a = Locksmith.start(first, "run", "job", "--uri", uri, "--", "sh", "-c", script);
        Process b = Locksmith.start(second, "run", "job", "--uri", uri, "--", "sh", "-c", script);
        assertThat(a.waitFor(2, TimeUnit.MINUTES) && b.waitFor(2, TimeUnit.MINUTES))
                .isTrue();
        assertThat(a.exitValue()).as(Files.readString(first)).isZero();
        assertThat(b.exitValue()).as(Files.readString(second)).isZero();
        long[] x = span(Files.readString(first));
        long[] y = span(Files.readString(second));
        assertThat(x[1] <= y[0] || y[1] <= x[0])
                .as("the two runs' intervals %s and %s do not overlap", List.of(x[0], x[1]), List.of(y[0], y[1]))
                .isTrue();
        assertThat(x[2]).as("fencing tokens differ").isNotEqualTo(y[2]);
    }

    private static long[] span(String output) {
        Matcher start = Pattern.compile("start (\\d+) (\\d+)").matcher(output);
        Matcher end = Pattern.compile("end (\\d+)").matcher(output);
        assertThat(start.find() && end.find()).as("timestamps in %s", output).isTrue();
        return new long[] {Long.parseLong(start.group(1)), Long.parseLong(end.group(1)), Long.parseLong(start.group(2))
        };
    }

    @Test
    void waitZeroFailsAtOnceWhenHeldAndTheCommandsExitCodeIsReturned() throws Exception {
        Path log = dir.resolve("holder.log");
        Process holder =
                Locksmith.start(log, "run", "busy", "--uri", sqlite(), "--", "sh", "-c", "echo holding; sleep 20");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(log).contains("holding") && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50); // polling a file a separate process writes
        }
        Locksmith.Result busy = Locksmith.run("run", "busy", "--wait", "0", "--uri", sqlite(), "--", "true");
        holder.destroy();
        assertThat(busy.exitCode()).as(busy.output()).isEqualTo(ExitCodes.LOCK_HELD);
        assertThat(busy.output()).contains("'busy'");
        Locksmith.Result code =
                Locksmith.run("run", "free", "--wait", "0", "--uri", sqlite(), "--", "sh", "-c", "exit 7");
        assertThat(code.exitCode()).as(code.output()).isEqualTo(7);
        Locksmith.Result missing = Locksmith.run("run", "free", "--uri", sqlite(), "--", "no-such-command-here");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void aLockLostWhileTheCommandRunsTerminatesItWithItsOwnExitCode() throws Exception {
        TestServer redis = TestServers.redis();
        RedisClient admin = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> c = admin.connect()) {
            Path log = dir.resolve("lost.log");
            Process p = Locksmith.start(
                    log,
                    "run",
                    "doomed",
                    "--lease",
                    "1s",
                    "--uri",
                    redis.uri(),
                    "--",
                    "sh",
                    "-c",
                    "echo running; sleep 60");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            List<String> keys = new ArrayList<>();
            while (keys.isEmpty() && System.nanoTime() < deadline) {
                keys = c.sync().keys("locksmith:*:doomed:lock");
                TimeUnit.MILLISECONDS.sleep(50); // polling another process's progress
            }
            assertThat(keys).as("the run took the lock").hasSize(1);
            c.sync().del(keys.get(0)); // an operator removes the lock behind the holder's back
            assertThat(p.waitFor(30, TimeUnit.SECONDS))
                    .as("the command was terminated")
                    .isTrue();
            assertThat(p.exitValue()).as(Files.readString(log)).isEqualTo(ExitCodes.LOCK_LOST);
            assertThat(Files.readString(log)).contains("was lost");
        } finally {
            admin.shutdown();
        }
    }

    @Test
    void statusShowsTheHolder() throws Exception {
        TestServer redis = TestServers.redis();
        try (LockClient locks = LockClient.open(redis.uri());
                LockHandle held = locks.lock("reports").acquire(Duration.ZERO)) {
            Locksmith.Result status = Locksmith.run("status", "reports", "idle", "--uri", redis.uri());
            assertThat(status.exitCode()).as(status.output()).isZero();
            assertThat(status.output())
                    .contains("reports: held by")
                    .contains("token " + held.fencingToken())
                    .contains("idle: free");
        }
    }

    @Test
    void badArgumentsExitWithAUsageMessageAndCodeTwo() throws Exception {
        for (String[] args : List.of(
                new String[] {"run"},
                new String[] {"run", "x"},
                new String[] {"nonsense"},
                new String[] {"run", "x", "--wait", "soon", "--", "true"},
                new String[] {"status"})) {
            Locksmith.Result r = Locksmith.run(args);
            assertThat(r.exitCode())
                    .as(String.join(" ", args) + ": " + r.output())
                    .isEqualTo(ExitCodes.USAGE);
            assertThat(r.output()).contains("Usage:");
        }
        for (String sub : List.of("demo", "run", "status", "bench", "tck")) {
            Locksmith.Result help = Locksmith.run(sub, "--help");
            assertThat(help.exitCode()).isZero();
            assertThat(help.output()).contains("Usage: locksmith " + sub);
        }
    }

    @Test
    void aMalformedUriIsAConfigurationError() throws Exception {
        Locksmith.Result r = Locksmith.run("status", "x", "--uri", "redis://:hunter2@127.0.0.1:notaport");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.output()).doesNotContain("hunter2").contains("Redis URI");
    }
}
