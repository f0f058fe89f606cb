package io.locksmith.cli;

import io.locksmith.bench.Bench;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code locksmith bench}: the benchmarks of lock-bench, every backend against its floor. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Measures backends against their floors, starting local test servers (see docs/benchmarks.md).",
            "Prints each scenario as it starts; writes benchmarks.md and benchmarks.json to --out.",
            "A quick look: --seconds 1 --warmup 0 --held 1000 --hold-seconds 5."
        })
final class BenchCommand implements Callable<Integer> {

    @Option(
            names = "--backends",
            paramLabel = "LIST",
            description =
                    "Comma-separated backends: memory, redis, postgresql, etcd, zookeeper, azure-blob (default: all).")
    String backends;

    @Option(names = "--seconds", paramLabel = "N", description = "Seconds each scenario measures (default: 5).")
    Integer seconds;

    @Option(names = "--warmup", paramLabel = "N", description = "Seconds each scenario warms up first (default: 5).")
    Integer warmup;

    @Option(
            names = "--held",
            paramLabel = "N",
            description = "Locks one client holds in the held-at-scale scenario; 0 leaves it out (default: 10000).")
    Integer held;

    @Option(
            names = "--hold-seconds",
            paramLabel = "N",
            description = "Seconds the held-at-scale scenario holds them (default: 60).")
    Integer holdSeconds;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Where to write the results (default: ${DEFAULT-VALUE}).")
    String out = "locksmith-bench";

    @Override
    public Integer call() throws Exception {
        List<String> args = new ArrayList<>(List.of("--out", out));
        if (backends != null) {
            args.addAll(List.of("--backends", backends));
        }
        add(args, "--seconds", seconds);
        add(args, "--warmup", warmup);
        add(args, "--held", held);
        add(args, "--hold-seconds", holdSeconds);
        Bench.main(args.toArray(String[]::new));
        return ExitCodes.OK;
    }

    private static void add(List<String> args, String option, Integer value) {
        if (value != null) {
            args.addAll(List.of(option, value.toString()));
        }
    }
}
