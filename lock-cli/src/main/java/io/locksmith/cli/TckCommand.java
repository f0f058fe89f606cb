package io.locksmith.cli;

import io.locksmith.tck.runner.TckRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code locksmith tck --uri U}: the compatibility kit against a backend. */
@Command(name = "tck", mixinStandardHelpOptions = true,
        description = "Runs the compatibility kit (docs/tck.md) against the backend and prints a table, rule by rule.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:no rule failed", "1:a rule failed", "2:bad arguments"})
final class TckCommand implements Callable<Integer> {

    @Mixin
    UriOption uri = new UriOption();

    @Option(names = "--lease", paramLabel = "D", description = "The lease for rules about time (default: 1s).")
    String lease;

    @Option(names = "--wakeup", description = "The backend wakes waiters on release (runs the wake-up rule).")
    boolean wakeup;

    @Option(names = "--fifo", description = "The backend grants waiters in arrival order (runs the FIFO rule).")
    boolean fifo;

    @Override
    public Integer call() {
        List<String> args = new ArrayList<>(List.of("--uri", uri.resolve()));
        if (lease != null) {
            args.addAll(List.of("--lease", lease));
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
