package io.locksmith.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Issue 20's contended scenario runs on memory and measures what it says: shapes only, never
 * speed, so that it passes on a loaded machine.
 */
class ContendedScenarioTest {

    private static final Duration WARM_UP = Duration.ofMillis(100);
    private static final Duration MEASURE = Duration.ofSeconds(1);

    @Test
    void eightLibraryClientsOnOneNameEachGetGrants() throws Exception {
        try (MemoryBench bench = new MemoryBench()) {
            Contention.Outcome o = Contention.run(
                    Contention.open(8, () -> Contention.library(bench.processClient(), "contended-test")),
                    WARM_UP,
                    MEASURE);
            assertShape("library", o);
        }
    }

    @Test
    void eightPollingFloorConnectionsOnOneKeyEachGetGrants() throws Exception {
        try (MemoryBench bench = new MemoryBench()) {
            Contention.Outcome o = Contention.run(
                    Contention.open(8, () -> Contention.polling(bench.floorConnection(), "contended-test")),
                    WARM_UP,
                    MEASURE);
            assertShape("polling floor", o);
        }
    }

    private static void assertShape(String who, Contention.Outcome o) {
        String rule = "[memory, " + who + "] contended: ";
        assertThat(o.grantsPerClient()).as(rule + "one count per client").hasSize(8);
        assertThat(o.grantsPerClient())
                .as(rule + "every client got grants in the measured window")
                .doesNotContain(0L);
        assertThat(o.fairness())
                .as(rule + "fairness is in (0, 1]")
                .isGreaterThan(0.0)
                .isLessThanOrEqualTo(1.0);
        assertThat(o.longestStreak())
                .as(rule + "a streak is at least one grant")
                .isGreaterThanOrEqualTo(1);
        assertThat(o.waitNanos().getTotalCount())
                .as(rule + "one wait per grant")
                .isEqualTo(Arrays.stream(o.grantsPerClient()).sum());
        assertThat(o.tailRatio()).as(rule + "p99.9 is at least the median").isGreaterThanOrEqualTo(1.0);
    }
}
