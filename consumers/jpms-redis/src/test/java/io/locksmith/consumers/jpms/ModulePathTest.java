package io.locksmith.consumers.jpms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs the application as a user runs a modular one — {@code java -p … -m module/main}, nothing
 * added on the command line — against a real Redis, and expects it to take and release its lock.
 */
class ModulePathTest {

    private static final String MODULE = "io.locksmith.consumers.jpms/io.locksmith.consumers.jpms.TakeALock";

    @Test
    void aNamedModuleTakesARedisLockOnTheModulePath() throws IOException, InterruptedException {
        String redis = System.getenv("LOCKSMITH_TEST_REDIS_URI");
        assertTrue(redis != null && !redis.isBlank(), "[jpms-redis] LOCKSMITH_TEST_REDIS_URI is not set, so there is no"
                + " Redis to test against: run scripts/consumer-tests.sh, which starts the servers and sets it");

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = Path.of(System.getProperty("consumer.classes")).resolveSibling("take-a-lock.log");   // kept in target/
        ProcessBuilder pb = new ProcessBuilder(java, "-p", modulePath(), "-m", MODULE)
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("LOCKSMITH_URI", redis);   // the environment, not the command line: a URI may hold a password
        Process app = pb.start();
        boolean exited = app.waitFor(2, TimeUnit.MINUTES);
        if (!exited) {
            app.destroyForcibly().waitFor();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);

        assertTrue(exited, "[jpms-redis] the application should exit within 2 minutes; output:\n" + output);
        assertEquals(0, app.exitValue(), "[jpms-redis] java -p … -m " + MODULE + " should exit 0; output:\n" + output);
        assertTrue(output.contains("held consumers/jpms-redis with token") && output.contains("released consumers/jpms-redis"),
                "[jpms-redis] the application should report the lock held and released; output:\n" + output);
    }

    /** The application's classes, then its runtime jars as Maven resolved them. */
    private static String modulePath() throws IOException {
        String jars = Files.readString(Path.of(System.getProperty("consumer.modulePathFile"))).strip();
        return String.join(File.pathSeparator, List.of(System.getProperty("consumer.classes"), jars));
    }
}
