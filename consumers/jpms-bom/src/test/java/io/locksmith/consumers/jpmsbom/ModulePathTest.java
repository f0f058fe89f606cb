package io.locksmith.consumers.jpmsbom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the application as a user runs a modular one — {@code java -p … -m module/main}, nothing
 * added on the command line — once per backend, and expects each run to take and release its lock.
 */
class ModulePathTest {

    private static final String MODULE = "io.locksmith.consumers.jpmsbom/io.locksmith.consumers.jpmsbom.TakeALock";

    /** Backend → the variable naming its server (set by scripts/consumer-tests.sh). */
    private static final Map<String, String> SERVERS = Map.of(
            "redis", "LOCKSMITH_TEST_REDIS_URI",
            "azure-blob", "LOCKSMITH_TEST_AZURITE_URI",
            "jdbc", "LOCKSMITH_TEST_POSTGRES_URI");

    @TestFactory
    Stream<DynamicTest> aNamedModuleTakesALockOnEachBackend() {
        return Stream.of("memory", "redis", "azure-blob", "jdbc")
                .map(backend -> DynamicTest.dynamicTest(backend, () -> takeALock(backend)));
    }

    private static void takeALock(String backend) throws IOException, InterruptedException {
        String rule = "[jpms-bom] " + backend + ": ";
        Path log = Path.of(System.getProperty("consumer.classes")).resolveSibling("take-a-lock-" + backend + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-p", modulePath(), "-m", MODULE)
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("LOCKSMITH_URI", uri(backend));   // the environment, not the command line: a URI may hold a key
        Process app = pb.start();
        boolean exited = app.waitFor(2, TimeUnit.MINUTES);
        if (!exited) {
            app.destroyForcibly().waitFor();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);

        assertTrue(exited, rule + "the application should exit within 2 minutes; output:\n" + output);
        assertEquals(0, app.exitValue(), rule + "java -p … -m " + MODULE + " should exit 0; output:\n" + output);
        assertTrue(output.contains("held consumers/jpms-bom with token") && output.contains("released consumers/jpms-bom"),
                rule + "the application should report the lock held and released; output:\n" + output);
    }

    private static String uri(String backend) {
        if (backend.equals("memory")) {
            return "memory:";
        }
        String variable = SERVERS.get(backend);
        String server = System.getenv(variable);
        assertTrue(server != null && !server.isBlank(), "[jpms-bom] " + variable + " is not set, so there is no " + backend
                + " server to test against: run scripts/consumer-tests.sh, which starts the servers and sets it");
        return backend.equals("azure-blob") ? "azblob:" + server + "?container=consumers" : server;
    }

    /** The application's classes, then its runtime jars as Maven resolved them. */
    private static String modulePath() throws IOException {
        String jars = Files.readString(Path.of(System.getProperty("consumer.modulePathFile"))).strip();
        return String.join(File.pathSeparator, List.of(System.getProperty("consumer.classes"), jars));
    }
}
