package io.locksmith.cli;

import io.locksmith.bench.Bench;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code locksmith bench}: the benchmarks of lock-bench, every backend against its floor. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measures backends against their floors, starting local test servers (see docs/benchmarks.md).",
            "Writes benchmarks.md and benchmarks.json to --out."})
final class BenchCommand implements Callable<Integer> {

    @Option(names = "--backends", paramLabel = "LIST", description = "Comma-separated backends (default: all).")
    String backends;

    @Option(names = "--seconds", paramLabel = "N", description = "Seconds per scenario (default: 5).")
    Integer seconds;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write the results (default: ${DEFAULT-VALUE}).")
    String out = "locksmith-bench";

    @Parameters(hidden = true)
    List<String> rest = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        List<String> args = new ArrayList<>(List.of("--out", out));
        if (backends != null) {
            args.addAll(List.of("--backends", backends));
        }
        if (seconds != null) {
            args.addAll(List.of("--seconds", seconds.toString()));
        }
        Bench.main(args.toArray(String[]::new));
        return ExitCodes.OK;
    }
}
