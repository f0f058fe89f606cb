package io.locksmith.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The contended scenario's arithmetic on a made-up run: grant order, fairness, streak, tail. */
class ContendedFiguresTest {

    /** Client 0 holds grants 0, 1, 2 and 6; client 1 grants 3 and 8; client 2 grants 4, 5 and 7. */
    private static final int[][] SEQUENCES = {{0, 1, 2, 6, -1}, {3, 8}, {4, 5, 7, -1, -1}};

    private static final int[] COUNTS = {4, 2, 3};

    @Test
    void theGrantOrderIsRebuiltFromEachClientsSequenceNumbers() {
        assertThat(Contention.grantOrder(SEQUENCES, COUNTS))
                .as("bench, contended: the clients in grant order, unused slots ignored")
                .containsExactly(0, 0, 0, 1, 2, 2, 0, 2, 1);
    }

    @Test
    void theLongestStreakIsTheMostConsecutiveGrantsToOneClient() {
        assertThat(Contention.longestStreak(Contention.grantOrder(SEQUENCES, COUNTS)))
                .as("bench, contended: client 0's first three grants are the longest run")
                .isEqualTo(3);
        assertThat(Contention.longestStreak(new int[] {1, 2, 1, 2}))
                .as("bench, contended: alternating grants make streaks of one")
                .isEqualTo(1);
        assertThat(Contention.longestStreak(new int[0]))
                .as("bench, contended: no grants, no streak")
                .isZero();
    }

    @Test
    void fairnessIsTheFewestGrantsOfOneClientOverTheMost() {
        assertThat(Contention.fairness(new long[] {4, 2, 3}))
                .as("bench, contended: 2 ÷ 4")
                .isEqualTo(0.5);
        assertThat(Contention.fairness(new long[] {5, 5}))
                .as("bench, contended: even grants are fairness 1")
                .isEqualTo(1.0);
        assertThat(Contention.fairness(new long[] {7, 0, 3}))
                .as("bench, contended: a client that got nothing makes fairness 0")
                .isZero();
        assertThat(Contention.fairness(new long[] {0, 0}))
                .as("bench, contended: no grants at all has no fairness")
                .isNaN();
    }

    @Test
    void theTailRatioIsTheWaitsP999OverItsMedian() {
        Histogram waits = new Histogram(3);
        waits.recordValueWithCount(100, 990);
        waits.recordValueWithCount(5_000, 10);
        assertThat(Contention.tailRatio(waits))
                .as("bench, contended: 990 waits of 100 µs and 10 of 5 ms: p50 100, p99.9 5 ms")
                .isCloseTo(50.0, within(0.5));
    }

    @Test
    void anOutcomeCarriesItsFiguresIntoTheReportRow() {
        Histogram waits = new Histogram(3);
        waits.recordValueWithCount(100_000, 990);
        waits.recordValueWithCount(5_000_000, 10);
        Result.Fairness f = new Contention.Outcome(900, new long[] {4, 2, 3}, 3, waits).figures();
        assertThat(f.fairness()).as("bench, contended: the row's fairness").isEqualTo(0.5);
        assertThat(f.fewest()).as("bench, contended: the row's fewest grants").isEqualTo(2);
        assertThat(f.most()).as("bench, contended: the row's most grants").isEqualTo(4);
        assertThat(f.longestStreak()).as("bench, contended: the row's streak").isEqualTo(3);
        assertThat(f.p999Micros())
                .as("bench, contended: the row's p99.9, in µs")
                .isCloseTo(5_000.0, within(10.0));
        Result row = new Result("memory", "contended", 900, 100, 100, 0.5, "latency = wait", f);
        assertThat(row.markdownRow())
                .as("bench, contended: the Markdown row names fairness, tail and streak")
                .contains("fairness 0.50 (2 ÷ 4 grants)", "× p50", "longest streak 3", "latency = wait");
        assertThat(row.json())
                .as("bench, contended: the JSON row carries the figures as fields")
                .contains("\"contention\":{\"fairness\":0.500,\"fewestGrants\":2,\"mostGrants\":4,")
                .contains("\"longestStreak\":3}");
    }
}
