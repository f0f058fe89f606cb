package io.locksmith.cli;

import io.locksmith.LockClient;
import io.locksmith.spi.Redaction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code locksmith demo}: several worker processes race to charge the same orders, three times —
 * without locks, with locks, and with locks while one worker stalls past its lease — and a table
 * shows what each run booked.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Shows why distributed locks and fencing tokens matter.",
            "Worker processes charge the same orders without locks, with locks, and with locks while one worker",
            "stalls past its lease (a long GC pause); a table shows what each run booked."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the story came out: duplicates without locks, none with them, the stale write refused",
            "1:it did not",
            "2:bad arguments",
            "69:the backend could not be reached",
            "78:bad configuration (URI)"
        })
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    UriOption uri = new UriOption();

    @Option(names = "--workers", paramLabel = "N", description = "Worker processes (default: ${DEFAULT-VALUE}).")
    int workers = 4;

    @Option(names = "--orders", paramLabel = "N", description = "Orders to charge (default: ${DEFAULT-VALUE}).")
    int orders = 200;

    @Option(
            names = "--lease",
            paramLabel = "D",
            converter = Durations.class,
            description = "The locks' lease; the stalled worker freezes for longer (default: 2s).")
    Duration lease = Duration.ofSeconds(2);

    /** One run's row of the table. */
    record Run(String title, long charges, long orders, long duplicates, long rejected) {}

    @Override
    public Integer call() throws Exception {
        if (workers < 2 || orders < 2) {
            throw new ParameterException(spec.commandLine(), "the demo needs at least 2 workers and 2 orders");
        }
        String backend = uri.resolve();
        try (LockClient probe = LockClient.open(backend)) {
            probe.lock("demo-probe").status(); // a bad URI or an unreachable backend fails here, before any round
        }
        Path dir = Files.createTempDirectory(UriOption.stateDirectory(), "demo-");
        Path ledgerFile = dir.resolve("ledger.db");
        System.out.println("locksmith demo: " + workers + " worker processes charge " + orders + " orders; locks on "
                + Redaction.redact(backend));
        List<Run> runs = new ArrayList<>();
        try (Ledger ledger = new Ledger(ledgerFile)) {
            runs.add(run(ledger, ledgerFile, backend, "without locks", "none"));
            runs.add(run(ledger, ledgerFile, backend, "with locks", "locks"));
            runs.add(run(ledger, ledgerFile, backend, "with locks, one worker stalled past its lease", "stall"));
        } finally {
            deleteQuietly(dir);
        }
        System.out.println();
        System.out.printf(
                Locale.ROOT,
                "%-48s %8s %8s %11s %22s%n",
                "run",
                "charges",
                "orders",
                "duplicates",
                "stale writes refused");
        for (Run r : runs) {
            System.out.printf(
                    Locale.ROOT, "%-48s %8d %8d %11d %22d%n", r.title, r.charges, r.orders, r.duplicates, r.rejected);
        }
        System.out.println();
        explain(runs).forEach(System.out::println);
        return storyCameOut(runs) ? ExitCodes.OK : ExitCodes.DEMO_FAILED;
    }

    /** @return whether the runs (without locks, with locks, stalled) show what the demo is for */
    static boolean storyCameOut(List<Run> runs) {
        return runs.get(0).duplicates > 0
                && runs.get(1).duplicates == 0
                && runs.get(2).duplicates == 0
                && runs.get(2).rejected > 0;
    }

    /** @return the closing text: what the table shows, run by run, and why */
    static List<String> explain(List<Run> runs) {
        Run without = runs.get(0);
        Run with = runs.get(1);
        Run stalled = runs.get(2);
        List<String> text = new ArrayList<>();
        if (without.duplicates > 0) {
            text.add("Without locks, workers that checked \"not charged yet\" at the same time both charged.");
        } else {
            text.add(
                    "Without locks, no two workers charged the same order this time: the race is real but not certain;");
            text.add("run again with more orders (--orders) or workers (--workers) to see it.");
        }
        if (with.duplicates == 0) {
            text.add("With locks, one worker at a time checks and charges: no duplicates.");
        } else {
            text.add("With locks there were still " + with.duplicates + " duplicates: the backend did not keep mutual"
                    + " exclusion.");
        }
        if (stalled.rejected > 0) {
            text.add("The stalled worker's lease ran out while it was frozen; another worker took the lock and");
            text.add("charged. When the stalled worker woke it still tried to charge, but its fencing token was");
            text.add("older than the one the ledger had seen, and the ledger refused it.");
        } else {
            text.add("With one worker stalled past its lease, no stale write was refused: the stalled worker's charge");
            text.add("did not meet a newer one, so its fencing token was never put to the test.");
        }
        return text;
    }

    private Run run(Ledger ledger, Path ledgerFile, String backend, String title, String mode) throws Exception {
        ledger.clear();
        List<Process> processes = new ArrayList<>();
        Path log = Files.createTempFile(ledgerFile.getParent(), mode, ".log");
        for (int w = 1; w <= workers; w++) {
            ProcessBuilder worker = new ProcessBuilder(javaCommand(mode, ledgerFile, w))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            // by the environment, never the command line, which every user of the machine can read
            worker.environment().put(DemoWorker.URI_VARIABLE, backend);
            processes.add(worker.start());
        }
        long[] totals = ledger.totals();
        for (Process p : processes) {
            while (!p.waitFor(250, TimeUnit.MILLISECONDS)) {
                totals = ledger.totals();
                System.out.printf(Locale.ROOT, "\r  %-48s %4d of %d orders charged", title, totals[1], orders);
                System.out.flush();
            }
        }
        totals = ledger.totals();
        System.out.printf(Locale.ROOT, "\r  %-48s %4d of %d orders charged%n", title, totals[1], orders);
        for (Process p : processes) {
            if (p.exitValue() != 0) {
                throw new io.locksmith.LockBackendException(
                        "a demo worker failed (exit " + p.exitValue() + "):\n" + Files.readString(log));
            }
        }
        return new Run(title, totals[0], totals[1], totals[0] - totals[1], totals[2]);
    }

    private List<String> javaCommand(String mode, Path ledger, int worker) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long stallNanos = lease.toNanos() * 3 / 2;
        return List.of(
                java,
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "-cp",
                System.getProperty("java.class.path"),
                "-Dlocksmith.demo.stall-nanos=" + stallNanos,
                DemoWorker.class.getName(),
                mode,
                ledger.toString(),
                Integer.toString(orders),
                Integer.toString(worker),
                Integer.toString(workers),
                Long.toString(lease.toMillis()));
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temporary directory in the state directory is harmless
        }
    }
}
