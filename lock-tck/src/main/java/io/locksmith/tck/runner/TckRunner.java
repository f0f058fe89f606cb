package io.locksmith.tck.runner;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the contract against any provider, from the command line:
 *
 * <pre>
 * java -jar lock-tck-VERSION-runner.jar --provider my-provider.jar --uri mine://host [--lease 5s]
 * </pre>
 *
 * <p>Prints one line per rule (passed, failed with the reason, or skipped with the reason) and
 * exits 0 if no rule failed, 1 if one did, 2 on bad arguments.
 */
public final class TckRunner {

    private TckRunner() {}

    /**
     * Runs the kit.
     *
     * @param args see the class comment; {@code --help} prints them
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the kit and returns the exit code instead of exiting.
     *
     * @param args the command line
     * @param out where the table goes
     * @param err where usage errors go
     * @return 0 if every rule passed or was skipped, 1 if one failed, 2 on bad arguments
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> props = new TreeMap<>();
        List<URL> jars = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--help", "-h" -> {
                        out.println(usage());
                        return 0;
                    }
                    case "--uri" -> props.put(UriContract.URI_PROPERTY, value(args, ++i, "--uri"));
                    case "--lease" -> props.put(UriContract.LEASE_PROPERTY, millis(value(args, ++i, "--lease")));
                    case "--min-lease" -> props.put(UriContract.MIN_LEASE_PROPERTY, millis(value(args, ++i, "--min-lease")));
                    case "--wakeup" -> props.put(UriContract.WAKEUP_PROPERTY, "true");
                    case "--fifo" -> props.put(UriContract.FIFO_PROPERTY, "true");
                    case "--provider" -> jars.add(jar(value(args, ++i, "--provider")));
                    default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
                }
            }
            if (!props.containsKey(UriContract.URI_PROPERTY)) {
                throw new IllegalArgumentException("--uri is required");
            }
        } catch (IllegalArgumentException e) {
            err.println("lock-tck: " + e.getMessage());
            err.println(usage());
            return 2;
        }
        props.forEach(System::setProperty);
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        ClassLoader loader = jars.isEmpty() ? previous
                : new URLClassLoader(jars.toArray(URL[]::new), TckRunner.class.getClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        try {
            return execute(out);
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    private static int execute(PrintStream out) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(UriContract.class)).build();
        Results results = new Results();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, results);
        results.print(out);
        return results.failed > 0 || results.rows.isEmpty() ? 1 : 0;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static String millis(String duration) {
        return Long.toString(io.locksmith.LockOptions.builder().set("lease", duration).build().lease().toMillis());
    }

    private static URL jar(String path) {
        Path p = Path.of(path);
        if (!Files.isRegularFile(p) && !Files.isDirectory(p)) {
            throw new IllegalArgumentException("--provider " + path + ": no such jar file or class directory");
        }
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("--provider " + path + ": " + e.getMessage());
        }
    }

    private static String usage() {
        return """
                usage: java -jar lock-tck-runner.jar --uri URI [options]
                  --uri URI          the provider's URI, e.g. memory://tck or redis://localhost:6379
                  --provider JAR     a jar (or class directory) holding the provider; repeat for its dependencies
                  --lease D          the lease for rules about time (default 1s, at least --min-lease)
                  --min-lease D      the provider's shortest lease (default 1ms)
                  --wakeup           the provider wakes waiters on release (runs the wake-up rule)
                  --fifo             the provider grants waiters in arrival order (runs the FIFO rule)
                exit codes: 0 every rule passed or was skipped, 1 a rule failed, 2 bad arguments""";
    }

    /** Collects one row per rule. */
    private static final class Results implements TestExecutionListener {
        private final Map<String, String[]> rows = new TreeMap<>();
        private int failed;

        @Override
        public void executionSkipped(TestIdentifier test, String reason) {
            row(test, "skipped", reason);
        }

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isContainer()) {
                result.getThrowable().ifPresent(t -> {
                    failed++;
                    rows.put("(setup)", new String[] {"FAILED", String.valueOf(t)});
                });
                return;
            }
            switch (result.getStatus()) {
                case SUCCESSFUL -> row(test, "passed", "");
                case ABORTED -> row(test, "skipped", result.getThrowable().map(Throwable::getMessage).orElse(""));
                default -> {
                    failed++;
                    row(test, "FAILED", result.getThrowable().map(String::valueOf).orElse(""));
                }
            }
        }

        private void row(TestIdentifier test, String status, String reason) {
            String rule = test.getSource().filter(MethodSource.class::isInstance).map(MethodSource.class::cast)
                    .map(MethodSource::getMethodName).orElse(test.getDisplayName());
            rows.put(rule, new String[] {status, reason == null ? "" : reason.replace('\n', ' ')});
        }

        void print(PrintStream out) {
            int width = rows.keySet().stream().mapToInt(String::length).max().orElse(4);
            out.printf("%-" + width + "s  %-7s  %s%n", "rule", "result", "reason");
            rows.forEach((rule, r) -> out.printf("%-" + width + "s  %-7s  %s%n", rule, r[0], r[1]));
            long passed = rows.values().stream().filter(r -> r[0].equals("passed")).count();
            long skipped = rows.values().stream().filter(r -> r[0].equals("skipped")).count();
            out.printf("%d passed, %d failed, %d skipped%n", passed, failed, skipped);
        }
    }
}
