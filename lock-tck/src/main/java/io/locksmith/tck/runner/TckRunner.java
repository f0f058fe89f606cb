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
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the contract against any provider, from the command line:
 *
 * <pre>
 * java -jar lock-tck-VERSION-runner.jar --provider my-provider.jar --uri mine://host [--lease 5s]
 * </pre>
 *
 * <p>Prints a line per rule as it finishes (passed, failed with the reason, or skipped with the
 * reason, and how long it took), then a summary, and exits 0 if every required rule passed, 1 if
 * one failed or was skipped (a required rule the provider cannot run is not shown to be kept), 2
 * on bad arguments.
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
     * @param out where the lines per rule and the summary go, as the rules finish
     * @param err where usage errors go
     * @return 0 if every required rule passed, 1 if one failed or was skipped, 2 on bad arguments
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
                    case "--min-lease" ->
                        props.put(UriContract.MIN_LEASE_PROPERTY, millis(value(args, ++i, "--min-lease")));
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
        ClassLoader loader = jars.isEmpty()
                ? previous
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
                .selectors(selectClass(UriContract.class))
                .build();
        RuleReport report = new RuleReport(out);
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, report);
        return report.failed() || report.empty() ? 1 : 0;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static String millis(String duration) {
        return Long.toString(io.locksmith.LockOptions.builder()
                .set("lease", duration)
                .build()
                .lease()
                .toMillis());
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
                prints a line per rule as it finishes: its name, result, time and the reason
                exit codes: 0 every required rule passed (optional ones passed or were skipped),
                            1 a rule failed or a required rule was skipped, 2 bad arguments""";
    }
}
