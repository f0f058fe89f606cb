package io.locksmith.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code locksmith demo} tells its story: duplicates without locks, none with them, the stale write refused. */
class DemoTest {

    private static final String PASSWORD = "s3cret-demo-pw";

    @TempDir
    Path dir;

    @Test
    void theDemoTellsItsStoryOnRedisAndNoProcessShowsThePasswordOnItsCommandLine() throws Exception {
        TestServer redis = TestServers.redis();
        RedisClient admin = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> c = admin.connect()) {
            c.sync()
                    .aclSetuser(
                            "demo-user",
                            io.lettuce.core.AclSetuserArgs.Builder.on()
                                    .addPassword(PASSWORD)
                                    .allKeys()
                                    .allChannels()
                                    .allCommands());
        } finally {
            admin.shutdown();
        }
        String uri = redis.uri().replace("redis://", "redis://demo-user:" + PASSWORD + "@");
        Path log = dir.resolve("demo.log");
        Process demo = Locksmith.start(log, Map.of("LOCKSMITH_URI", uri), "demo", "--workers", "3", "--orders", "80");
        Set<String> exposed = new TreeSet<>();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
        while (!demo.waitFor(20, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline) {
            exposed.addAll(commandLinesContaining(PASSWORD)); // what ps(1) shows every user on the machine
        }
        assertThat(demo.isAlive())
                .as("the demo finished within 4 minutes: %s", Files.readString(log))
                .isFalse();
        String output = Files.readString(log);
        assertThat(exposed)
                .as("command lines showing the backend's password during the demo")
                .isEmpty();
        assertThat(output).as("the demo's own output masks the password").doesNotContain(PASSWORD);
        assertThat(demo.exitValue()).as("the demo's story came out: %s", output).isZero();
        assertThat(row(output, "without locks")[2])
                .as("duplicates without locks: %s", output)
                .isPositive();
        assertThat(row(output, "with locks")[2])
                .as("duplicates with locks: %s", output)
                .isZero();
        long[] stalled = row(output, "with locks, one worker stalled past its lease");
        assertThat(stalled[2])
                .as("duplicates with locks and a stalled worker: %s", output)
                .isZero();
        assertThat(stalled[3]).as("stale writes refused: %s", output).isPositive();
        assertThat(stalled[1]).as("every order charged: %s", output).isEqualTo(80);
    }

    @Test
    void aBadUriFailsAtOnceWithCodeSeventyEightBeforeAnyRound() throws Exception {
        Locksmith.Result r = Locksmith.run("demo", "--uri", "redis://:hunter2@127.0.0.1:notaport");
        assertThat(r.exitCode()).as("a malformed URI exits 78: %s", r.output()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.output())
                .as("no round ran and the message is printed once, masked")
                .doesNotContain("orders charged")
                .doesNotContain("hunter2")
                .doesNotContain("\tat ");
        assertThat(Pattern.compile("Redis URI").matcher(r.output()).results().count())
                .as("the reason is printed once: %s", r.output())
                .isEqualTo(1);
    }

    /** @return the command lines of this machine's processes that contain {@code secret} */
    static Set<String> commandLinesContaining(String secret) throws IOException {
        Set<String> found = new TreeSet<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                String line;
                try {
                    line = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8)
                            .replace('\0', ' ');
                } catch (IOException gone) {
                    continue; // the process ended meanwhile
                }
                if (line.contains(secret)) {
                    found.add(proc.getFileName() + ": " + line.replace(secret, "<the password>"));
                }
            }
        }
        return found;
    }

    /** @return charges, orders, duplicates, refused for the table row titled {@code title} */
    static long[] row(String output, String title) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(title) + "\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)$")
                .matcher(output);
        assertThat(m.find()).as("a row '%s' in:%n%s", title, output).isTrue();
        return new long[] {
            Long.parseLong(m.group(1)),
            Long.parseLong(m.group(2)),
            Long.parseLong(m.group(3)),
            Long.parseLong(m.group(4))
        };
    }
}
