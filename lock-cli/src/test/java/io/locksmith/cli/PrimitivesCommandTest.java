package io.locksmith.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.LeaderElection;
import io.locksmith.LockClient;
import io.locksmith.testing.TestServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --permits N} (a semaphore's permit instead of a lock) and {@code status} of semaphores
 * and leader elections, run as processes against backends that processes share.
 */
class PrimitivesCommandTest {

    @TempDir
    Path dir;

    private String sqlite() {
        return "jdbc:sqlite:" + dir.resolve("locks.db");
    }

    @Test
    void threeRunsWithTwoPermitsNeverOverlapMoreThanTwoOnTheDefaultKindOfBackend() throws Exception {
        assertAtMostTwoAtOnce(sqlite());
    }

    @Test
    void threeRunsWithTwoPermitsNeverOverlapMoreThanTwoOnRedis() throws Exception {
        assertAtMostTwoAtOnce(TestServers.redis().uri());
    }

    @Test
    void threeRunsWithTwoPermitsNeverOverlapMoreThanTwoOnEtcd() throws Exception {
        assertAtMostTwoAtOnce(TestServers.etcd().uri());
    }

    /**
     * Three runs of a command that records its start and end and then waits for a file: two start,
     * the third waits (status shows two holders), and once the file is there all three finish.
     */
    private void assertAtMostTwoAtOnce(String uri) throws Exception {
        Path go = dir.resolve("go");
        String script = "echo start $(date +%s%N) $LOCKSMITH_FENCING_TOKEN; while [ ! -e '" + go
                + "' ]; do sleep 0.1; done; echo end $(date +%s%N)";
        List<Path> logs = new ArrayList<>();
        List<Process> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path log = dir.resolve("run-" + i + ".log");
            logs.add(log);
            runs.add(Locksmith.start(log, "run", "backups", "--permits", "2", "--uri", uri, "--", "sh", "-c", script));
        }
        try {
            awaitStarted(logs, runs, 2);
            Locksmith.Result status = Locksmith.run("status", "--semaphore", "backups", "--uri", uri);
            assertThat(status.exitCode()).as(status.output()).isZero();
            assertThat(status.output())
                    .as("[%s] status --semaphore while two runs hold permits", uri)
                    .contains("backups (semaphore): 2 permits held");
            assertThat(started(logs))
                    .as("[%s] run --permits 2: the third run waits while two hold permits", uri)
                    .isEqualTo(2);
            Files.createFile(go);
            for (int i = 0; i < 3; i++) {
                assertThat(runs.get(i).waitFor(2, TimeUnit.MINUTES))
                        .as("[%s] run %d finished: %s", uri, i, Files.readString(logs.get(i)))
                        .isTrue();
                assertThat(runs.get(i).exitValue())
                        .as("[%s] run %d's exit code: %s", uri, i, Files.readString(logs.get(i)))
                        .isZero();
            }
        } finally {
            runs.forEach(Process::destroyForcibly);
        }
        List<long[]> spans = new ArrayList<>();
        for (Path log : logs) {
            spans.add(span(Files.readString(log)));
        }
        assertThat(mostAtOnce(spans))
                .as("[%s] run --permits 2: runs at once, by their start and end times", uri)
                .isLessThanOrEqualTo(2);
        assertThat(spans.stream().map(s -> s[2]).distinct().count())
                .as("[%s] run --permits 2: every grant has its own fencing token", uri)
                .isEqualTo(3);
    }

    @Test
    void aRunGivingAnotherNumberOfPermitsFailsNamingBothNumbersOnTheDefaultKindOfBackend() throws Exception {
        assertMismatchFails(sqlite());
    }

    @Test
    void aRunGivingAnotherNumberOfPermitsFailsNamingBothNumbersOnEtcd() throws Exception {
        assertMismatchFails(TestServers.etcd().uri());
    }

    private void assertMismatchFails(String uri) throws Exception {
        Path log = dir.resolve("holder.log");
        Process holder = Locksmith.start(
                log, "run", "reports", "--permits", "2", "--uri", uri, "--", "sh", "-c", "echo holding; sleep 60");
        try {
            Locksmith.awaitOutput(log, "holding", holder);
            Locksmith.Result other =
                    Locksmith.run("run", "reports", "--permits", "3", "--wait", "30s", "--uri", uri, "--", "true");
            assertThat(other.exitCode())
                    .as("[%s] run --permits 3 while holders gave 2: %s", uri, other.output())
                    .isEqualTo(ExitCodes.PERMIT_MISMATCH);
            assertThat(other.output())
                    .as("[%s] run --permits 3 while holders gave 2: the message names both numbers", uri)
                    .contains("semaphore 'reports'")
                    .contains("has 2 permits")
                    .contains("one of 3");
            Locksmith.Result same =
                    Locksmith.run("run", "reports", "--permits", "2", "--wait", "0", "--uri", uri, "--", "true");
            assertThat(same.exitCode())
                    .as("[%s] run --permits 2 beside one holder of 2: %s", uri, same.output())
                    .isZero();
            Locksmith.Result lock = Locksmith.run("run", "reports", "--wait", "0", "--uri", uri, "--", "true");
            assertThat(lock.exitCode())
                    .as(
                            "[%s] run without --permits takes the lock 'reports', which the semaphore does not hold: %s",
                            uri, lock.output())
                    .isZero();
        } finally {
            holder.destroyForcibly();
        }
    }

    @Test
    void statusShowsTheLeadersIdentity() throws Exception {
        String uri = TestServers.redis().uri();
        try (LockClient locks = LockClient.open(uri);
                LeaderElection election = locks.leaderElection("scheduler", "node-a")) {
            election.start();
            assertThat(election.awaitLeadership(Duration.ofMinutes(1)))
                    .as("the only participant is elected")
                    .isTrue();
            Locksmith.Result status = Locksmith.run("status", "scheduler", "--uri", uri);
            assertThat(status.exitCode()).as(status.output()).isZero();
            assertThat(status.output())
                    .as("status of a leader election's lock")
                    .contains("scheduler: leader node-a, held by ")
                    .contains("token " + election.term().orElseThrow());
        }
    }

    @Test
    void aRunWithPermitsGivesTheCommandThePermitsTokenAndItsExitCode() throws Exception {
        Locksmith.Result r = Locksmith.run(
                "run",
                "jobs",
                "--permits",
                "2",
                "--uri",
                "memory:",
                "--",
                "sh",
                "-c",
                "echo token=$LOCKSMITH_FENCING_TOKEN name=$LOCKSMITH_LOCK_NAME; exit 7");
        assertThat(r.exitCode())
                .as("run --permits returns the command's exit code: %s", r.output())
                .isEqualTo(7);
        assertThat(r.output())
                .as("run --permits: the command sees the permit's token and the name")
                .containsPattern("token=[1-9][0-9]* name=jobs");
    }

    @Test
    void statusOfAFreeSemaphore() throws Exception {
        Locksmith.Result status = Locksmith.run("status", "--semaphore", "idle", "--uri", sqlite());
        assertThat(status.exitCode()).as(status.output()).isZero();
        assertThat(status.output()).as("status --semaphore of a free name").contains("idle (semaphore): free");
    }

    @Test
    void badPermitsAreBadArguments() throws Exception {
        for (String permits : List.of("0", "-1", "many")) {
            Locksmith.Result r = Locksmith.run("run", "x", "--permits", permits, "--uri", sqlite(), "--", "true");
            assertThat(r.exitCode()).as("--permits %s: %s", permits, r.output()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.output()).contains("Usage:");
        }
    }

    private static void awaitStarted(List<Path> logs, List<Process> runs, int count)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (started(logs) < count) {
            if (System.nanoTime() > deadline || runs.stream().anyMatch(p -> !p.isAlive())) {
                StringBuilder out = new StringBuilder();
                for (Path log : logs) {
                    out.append(log.getFileName()).append(":\n").append(Files.readString(log));
                }
                throw new AssertionError("expected " + count + " runs to start, got:\n" + out);
            }
            TimeUnit.MILLISECONDS.sleep(50); // polling files other processes write
        }
    }

    private static long started(List<Path> logs) throws IOException {
        long n = 0;
        for (Path log : logs) {
            if (Files.readString(log).contains("start ")) {
                n++;
            }
        }
        return n;
    }

    /** @return start, end and fencing token of one run's command */
    private static long[] span(String output) {
        Matcher start = Pattern.compile("start (\\d+) (\\d+)").matcher(output);
        Matcher end = Pattern.compile("end (\\d+)").matcher(output);
        assertThat(start.find() && end.find()).as("timestamps in %s", output).isTrue();
        return new long[] {Long.parseLong(start.group(1)), Long.parseLong(end.group(1)), Long.parseLong(start.group(2))
        };
    }

    /** @return the most spans that overlap at one instant; a span ending when another starts does not overlap it */
    static int mostAtOnce(List<long[]> spans) {
        List<long[]> edges = new ArrayList<>(); // {time, +1 start / -1 end}
        for (long[] s : spans) {
            edges.add(new long[] {s[0], 1});
            edges.add(new long[] {s[1], -1});
        }
        edges.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        int now = 0;
        int most = 0;
        for (long[] e : edges) {
            now += (int) e[1];
            most = Math.max(most, now);
        }
        return most;
    }
}
