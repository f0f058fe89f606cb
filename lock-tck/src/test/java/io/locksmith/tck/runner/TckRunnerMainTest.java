package io.locksmith.tck.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The runner through its main class, against the kit's own test providers ({@code flawed://…},
 * registered for these tests): a line per rule as it finishes, required rules that cannot run
 * counted as failures with the reason, and the exit code.
 */
class TckRunnerMainTest {

    @Test
    void rulesNeedingFaultHooksSayTheyDidNotRunAndTheSoundProviderPasses() {
        Run run = Run.of("--uri", "flawed://none", "--wakeup");
        assertEquals(
                0, run.exit, "the runner declares its missing fault hooks; the sound provider passes:\n" + run.text());
        run.expectLine("required_mutualExclusionUnderContention\\s+passed\\s+\\d+ ms\\s*");
        run.expectLine("optional_waiterIsWokenPromptlyOnRelease\\s+passed\\s+\\d+ ms\\s*");
        run.expectLine("required_stateRemovedBehindTheHolderIsReportedLostOnce\\s+skipped\\s+\\d+ ms\\s+"
                + ".*did not run, as the provider declares: .*no hook to remove a lock's state.*");
        run.expectLine("optional_waitersAreGrantedInArrivalOrder\\s+skipped\\s+\\d+ ms\\s+.*does not queue.*");
        run.expectLine("\\d+ passed, 0 failed, \\d+ skipped");
    }

    @Test
    void aRequiredRuleSkippedForAnUndeclaredReasonFailsTheRun() {
        Run run = Run.of("--uri", "flawed://aborts_a_rule");
        assertEquals(1, run.exit, "a required rule that did not run, undeclared, fails the run:\n" + run.text());
        run.expectLine("required_tokensIncreaseAcrossGrantsAndClients\\s+FAILED\\s+\\d+ ms\\s+"
                + "skipped, but a required rule must run: .*");
        run.expectLine("  required_tokensIncreaseAcrossGrantsAndClients: skipped, but a required rule must run: .*");
    }

    @Test
    void rulesAreReportedAsTheyFinishNotAtTheEnd() {
        Run run = Run.of("--uri", "flawed://first_attempt_refused");
        assertEquals(1, run.exit, "a provider that breaks a rule fails the run:\n" + run.text());
        Line failedRule = run.expectLine(
                "required_tryAcquireTakesAFreeLock\\s+FAILED\\s+\\d+ ms\\s+.*"
                        + "\\[flawed://FIRST_ATTEMPT_REFUSED\\] required_tryAcquireTakesAFreeLock: tryAcquire\\(\\) of a free lock must grant it");
        Line firstRule = run.lines.stream()
                .filter(l -> l.text.matches("(required|optional)_\\S+\\s+(passed|FAILED|skipped)\\s.*"))
                .findFirst()
                .orElseThrow();
        Line summary = run.expectLine("\\d+ passed, \\d+ failed, \\d+ skipped");
        assertTrue(
                summary.at - firstRule.at > TimeUnit.SECONDS.toNanos(1),
                "the first rule's line must be printed when it finishes, well before the run ends; it came "
                        + TimeUnit.NANOSECONDS.toMillis(summary.at - firstRule.at) + " ms before the summary");
        assertTrue(failedRule.at < summary.at, "the failed rule is printed when it fails");
    }

    @Test
    void badArgumentsExitWithTwoAndTheUsage() {
        Run run = Run.of("--uri");
        assertEquals(2, run.exit, run.text());
        assertTrue(run.err.contains("--uri needs a value") && run.err.contains("usage:"), run.err);
    }

    /** One line of the runner's output and when it was printed. */
    private record Line(String text, long at) {}

    /** A run of the runner, its output line by line with the time each line came. */
    private static final class Run {
        final List<Line> lines = new ArrayList<>();
        String err;
        int exit;

        static Run of(String... args) {
            Run run = new Run();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            exitOf(run, args, err);
            run.err = err.toString(StandardCharsets.UTF_8);
            return run;
        }

        private static void exitOf(Run run, String[] args, ByteArrayOutputStream err) {
            try (PrintStream out = new PrintStream(run.lineSink(), true, StandardCharsets.UTF_8);
                    PrintStream errs = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                run.exit = TckRunner.run(args, out, errs);
            }
        }

        private OutputStream lineSink() {
            return new OutputStream() {
                private final ByteArrayOutputStream line = new ByteArrayOutputStream();

                @Override
                public synchronized void write(int b) {
                    if (b == '\n') {
                        synchronized (lines) {
                            lines.add(new Line(
                                    line.toString(StandardCharsets.UTF_8).stripTrailing(), System.nanoTime()));
                        }
                        line.reset();
                    } else {
                        line.write(b);
                    }
                }
            };
        }

        Line expectLine(String regex) {
            Optional<Line> found;
            synchronized (lines) {
                found = lines.stream().filter(l -> l.text.matches(regex)).findFirst();
            }
            assertTrue(found.isPresent(), "the runner must print a line matching " + regex + ":\n" + text());
            return found.get();
        }

        String text() {
            synchronized (lines) {
                return String.join("\n", lines.stream().map(Line::text).toList()) + "\n" + err;
            }
        }
    }
}
