package io.locksmith.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code locksmith bench}, shortened, on memory and on a Redis it starts itself. */
class BenchTest {

    @TempDir
    Path dir;

    @Test
    void aShortBenchRunsMemoryAndARealBackendShowingProgressAndWritesTheTable() throws Exception {
        Path out = dir.resolve("results");
        Locksmith.Result r = Locksmith.run(
                "bench",
                "--backends",
                "memory,redis",
                "--seconds",
                "1",
                "--warmup",
                "0",
                "--held",
                "100",
                "--hold-seconds",
                "1",
                "--out",
                out.toString());
        assertThat(r.exitCode()).as("bench exits 0: %s", r.output()).isZero();
        assertThat(r.output())
                .as("bench says what it is measuring while it runs")
                .contains("bench: memory: uncontended pair")
                .contains("bench: redis: held at scale");
        String table = Files.readString(out.resolve("benchmarks.md"));
        assertThat(table)
                .as("the table has the Redis rows, the held-at-scale phase shortened")
                .contains("| redis | uncontended pair |")
                .contains("held at scale: 100 locks for 1 s");
        assertThat(out.resolve("benchmarks.json")).as("the JSON results").isNotEmptyFile();
    }
}
