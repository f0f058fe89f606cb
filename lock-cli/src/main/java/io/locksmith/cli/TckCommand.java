package io.locksmith.cli;

import io.locksmith.LockClient;
import io.locksmith.tck.runner.TckRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code locksmith tck --uri U}: the compatibility kit against a backend, a line per rule as it
 * finishes. The backend is opened once before the kit starts, so that a bad URI, an unknown
 * {@code --provider} or an unreachable server is one message and exit 78 or 69, not forty failed
 * rules.
 */
@Command(
        name = "tck",
        mixinStandardHelpOptions = true,
        description =
                "Runs the compatibility kit (docs/tck.md) against the backend, printing a line per rule as it finishes.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every required rule passed",
            "1:a rule failed, or a required rule was skipped",
            "2:bad arguments",
            "69:the backend could not be reached",
            "78:bad configuration (URI, provider)"
        })
final class TckCommand implements Callable<Integer> {

    /** The system property the library reads to force a provider; see docs/providers.md. */
    private static final String FORCE_PROVIDER = "locksmith.provider";

    @Mixin
    UriOption uri = new UriOption();

    @Option(
            names = "--provider",
            paramLabel = "NAME",
            description =
                    "The provider to test, by name (memory, redis, jdbc, etcd, zookeeper, azure-blob) or class name, "
                            + "where several could open the URI (default: the one provider for its scheme).")
    String provider;

    @Option(
            names = "--lease",
            paramLabel = "D",
            converter = Durations.class,
            description = "The lease for rules about time (default: 1s).")
    Duration lease;

    @Option(
            names = "--min-lease",
            paramLabel = "D",
            converter = Durations.class,
            description = "The backend's shortest lease (default: 1ms).")
    Duration minLease;

    @Option(names = "--wakeup", description = "The backend wakes waiters on release (runs the wake-up rule).")
    boolean wakeup;

    @Option(names = "--fifo", description = "The backend grants waiters in arrival order (runs the FIFO rule).")
    boolean fifo;

    @Override
    public Integer call() {
        String target = uri.resolve();
        if (provider != null) {
            System.setProperty(FORCE_PROVIDER, provider);
        }
        try (LockClient probe = LockClient.open(target)) {
            probe.lock("locksmith-tck-probe").status();
        }
        List<String> args = new ArrayList<>(List.of("--uri", target));
        if (lease != null) {
            args.addAll(List.of("--lease", lease.toMillis() + "ms"));
        }
        if (minLease != null) {
            args.addAll(List.of("--min-lease", minLease.toMillis() + "ms"));
        }
        if (wakeup) {
            args.add("--wakeup");
        }
        if (fifo) {
            args.add("--fifo");
        }
        return TckRunner.run(args.toArray(String[]::new), System.out, System.err);
    }
}
