package io.locksmith.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code ./locksmith demo} tells its story: duplicates without locks, none with them, the stale write refused. */
class DemoTest {

    @Test
    void theDemosTableShowsDuplicatesOnlyWithoutLocksAndTheStaleWriteRefused() throws Exception {
        Locksmith.Result r = Locksmith.run("demo", "--workers", "3", "--orders", "80");
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(row(r.output(), "without locks")[2]).as(r.output()).isPositive();
        assertThat(row(r.output(), "with locks")[2]).isZero();
        long[] stalled = row(r.output(), "with locks, one worker stalled past its lease");
        assertThat(stalled[2]).isZero();
        assertThat(stalled[3]).as("stale writes refused").isPositive();
        assertThat(stalled[1]).as("every order charged").isEqualTo(80);
    }

    /** @return charges, orders, duplicates, refused for the table row titled {@code title} */
    private static long[] row(String output, String title) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(title) + "\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)$").matcher(output);
        assertThat(m.find()).as("a row '%s' in:%n%s", title, output).isTrue();
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
            Long.parseLong(m.group(4))};
    }
}
