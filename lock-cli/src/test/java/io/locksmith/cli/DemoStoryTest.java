package io.locksmith.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's closing text says what the table shows, not what usually happens. */
class DemoStoryTest {

    private static List<DemoCommand.Run> runs(long duplicatesWithoutLocks, long duplicatesWithLocks, long refused) {
        return List.of(
                new DemoCommand.Run("without locks", 40 + duplicatesWithoutLocks, 40, duplicatesWithoutLocks, 0),
                new DemoCommand.Run("with locks", 40 + duplicatesWithLocks, 40, duplicatesWithLocks, 0),
                new DemoCommand.Run("with locks, one worker stalled past its lease", 40, 40, 0, refused));
    }

    @Test
    void noDuplicatesWithoutLocksIsReportedAsSuchNotAsTheUsualStory() {
        String text = String.join("\n", DemoCommand.explain(runs(0, 0, 1)));
        assertThat(text)
                .as("the text when no duplicates happened without locks")
                .doesNotContain("both charged")
                .contains("no two workers charged the same order");
        assertThat(DemoCommand.storyCameOut(runs(0, 0, 1)))
                .as("the story did not come out")
                .isFalse();
    }

    @Test
    void theUsualStoryIsToldWhenTheTableShowsIt() {
        String text = String.join("\n", DemoCommand.explain(runs(25, 0, 1)));
        assertThat(text)
                .as("the text for the usual outcome")
                .contains("both charged")
                .contains("no duplicates")
                .contains("the ledger refused it");
        assertThat(DemoCommand.storyCameOut(runs(25, 0, 1)))
                .as("the story came out")
                .isTrue();
    }

    @Test
    void duplicatesWithLocksOrNoRefusalAreNamedAsFailures() {
        assertThat(String.join("\n", DemoCommand.explain(runs(25, 3, 1))))
                .as("the text with duplicates under locks")
                .contains("still 3 duplicates");
        assertThat(String.join("\n", DemoCommand.explain(runs(25, 0, 0))))
                .as("the text when no stale write was refused")
                .contains("no stale write was refused")
                .doesNotContain("the ledger refused it");
    }
}
