package io.locksmith.faults;

import io.locksmith.LockOptions;
import io.locksmith.testing.TestServerException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The fault suite's matrix: every backend × every nemesis that applies to it, one
 * {@link FaultRun} each, one table row each as it finishes; exits 1 if any run broke a promise.
 * {@code scripts/faults.sh} runs it:
 *
 * <pre>
 * FaultSuite [--backends memory,redis,…] [--nemeses kill,pause,…] [--seconds 20] [--dir target/faults]
 *            [--primitive lock|semaphore:N|leader]
 * </pre>
 *
 * <p>Each run lasts {@code --seconds} (at least four leases) after its workers have started. A
 * nemesis asked for where it does not apply is listed as such, not run.
 */
public final class FaultSuite {

    private static final Duration DEFAULT_LENGTH = Duration.ofSeconds(20);

    private FaultSuite() {}

    /**
     * Runs the matrix.
     *
     * @param args see the class description
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        List<String> backends = Target.NAMES;
        List<Nemesis> nemeses = null;
        Duration length = DEFAULT_LENGTH;
        Path dir = Path.of("target", "faults");
        WorkerSettings.Primitive primitive = WorkerSettings.Primitive.LOCK;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--backends" -> backends = List.of(value.split(","));
                case "--nemeses" ->
                    nemeses =
                            Arrays.stream(value.split(",")).map(Nemesis::ofFlag).toList();
                case "--seconds" -> length = Duration.ofSeconds(Long.parseLong(value));
                case "--dir" -> dir = Path.of(value);
                case "--primitive" -> primitive = WorkerSettings.Primitive.ofFlag(value);
                default -> {
                    System.err.println("usage: faults.sh [--backends a,b] [--nemeses x,y] [--seconds N] [--dir D]"
                            + " [--primitive lock|semaphore:N|leader]"
                            + "\n  backends: " + String.join(",", Target.NAMES)
                            + "\n  nemeses:  "
                            + Arrays.stream(Nemesis.values()).map(Nemesis::flag).toList());
                    System.exit(2);
                }
            }
            i++;
        }
        boolean passed = run(backends, nemeses, length, dir, primitive, System.out);
        System.exit(passed ? 0 : 1);
    }

    /**
     * Runs part of the matrix and prints its table.
     *
     * @param backends the backends, by {@link Target#NAMES}
     * @param nemeses  the nemeses, or {@code null} for every one that applies
     * @param length   each run's length
     * @param dir      where each run's files go, one directory per run
     * @param primitive what the workers take
     * @param out      where the table goes
     * @return whether every run kept every promise
     * @throws InterruptedException if interrupted
     */
    static boolean run(
            List<String> backends,
            List<Nemesis> nemeses,
            Duration length,
            Path dir,
            WorkerSettings.Primitive primitive,
            PrintStream out)
            throws InterruptedException {
        long start = System.nanoTime();
        out.println(Findings.header());
        out.flush();
        boolean passed = true;
        for (String name : backends) {
            Target target;
            try {
                target = Target.open(name, mkdirs(dir.resolve(name)));
            } catch (TestServerException | IllegalArgumentException e) {
                out.printf("%-19s %s%n", name, "FAIL: " + e.getMessage());
                passed = false;
                continue;
            }
            List<Nemesis> planned = nemeses == null ? Nemesis.matrix(target) : nemeses;
            for (Nemesis n : planned) {
                if (!n.appliesTo(target)) {
                    out.printf("%-19s %-18s %s%n", name, n.flag(), "does not apply");
                    continue;
                }
                Duration runLength = length.compareTo(target.lease().multipliedBy(4)) < 0
                        ? target.lease().multipliedBy(4)
                        : length;
                Path runDir = dir.resolve(name).resolve(n.flag());
                try {
                    passed &= report(
                            FaultRun.run(FaultRun.Plan.of(target, n, runLength).taking(primitive), runDir),
                            out::println);
                } catch (RuntimeException e) {
                    // a nemesis that could not act (a server that did not come back) fails its run, not the matrix
                    out.printf(
                            "%-19s %-18s %s%n",
                            name, n.flag(), "FAIL: the run broke off: " + e + " (see " + runDir + ")");
                    passed = false;
                }
                out.flush();
            }
        }
        out.printf(
                "%d s in all; histories under %s%n",
                Duration.ofNanos(System.nanoTime() - start).toSeconds(), dir);
        return passed;
    }

    /**
     * Judges one run with the {@link Checker} against its backend's documented promises and prints
     * its row, and the findings' report under it unless the verdict is a plain PASS.
     *
     * @param r   the run
     * @param out where the row goes
     * @return whether the run kept every promise (documented exceptions allowed)
     */
    static boolean report(FaultRun.Result r, Consumer<String> out) {
        Findings f = check(r);
        WorkerSettings.Primitive p = r.plan().primitive();
        String nemesis = r.plan().nemesis().flag();
        out.accept(f.row(
                r.plan().target().name(), p == WorkerSettings.Primitive.LOCK ? nemesis : nemesis + " " + p.flag()));
        if (!f.verdict().equals("PASS")) {
            out.accept(f.report().stripTrailing());
        }
        return f.passed();
    }

    /**
     * @param r a run
     * @return what its history shows, held to its backend's promises
     */
    static Findings check(FaultRun.Result r) {
        Target target = r.plan().target();
        return Checker.check(
                r.history(),
                CheckerSettings.forBackend(
                                target.name(),
                                target.lease(),
                                LockOptions.defaults().backoffMax())
                        .withPermits(r.plan().primitive().permits()));
    }

    private static Path mkdirs(Path p) {
        try {
            return Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + p, e);
        }
    }
}
