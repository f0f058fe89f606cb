package io.locksmith.tck.runner;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints a line per rule as soon as it finishes (name, result, time, reason), so that a long run
 * shows its progress, then a summary and the failed rules again at the end.
 *
 * <p>A {@code required_} rule that was skipped counts as failed, with the skip's reason: a
 * provider that cannot run a required rule has not shown that it keeps it. Only {@code optional_}
 * rules, and required rules that need a capability the provider declares it lacks (a fault hook
 * the runner cannot supply), may be skipped.
 */
final class RuleReport implements TestExecutionListener {

    private static final String REQUIRED = "required_";

    private final PrintStream out;
    private final ConcurrentHashMap<String, Long> started = new ConcurrentHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private int width = 40;
    private int passed;
    private int skipped;

    RuleReport(PrintStream out) {
        this.out = out;
    }

    /** @return whether any rule (or the kit's setup) failed */
    synchronized boolean failed() {
        return !failures.isEmpty();
    }

    /** @return whether no rule ran at all */
    synchronized boolean empty() {
        return passed + skipped + failures.size() == 0;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        plan.getRoots().stream()
                .flatMap(root -> plan.getDescendants(root).stream())
                .filter(TestIdentifier::isTest)
                .mapToInt(t -> rule(t).length())
                .max()
                .ifPresent(longest -> width = longest);
        line("rule", "result", "time", "reason");
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        started.put(test.getUniqueId(), System.nanoTime());
    }

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        skippedRule(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (test.isContainer()) {
            // a rule group's setup or teardown failed: every rule in it is unproven
            result.getThrowable()
                    .ifPresent(t -> failedRule("(setup of " + test.getDisplayName() + ")", "-", t.toString()));
            return;
        }
        switch (result.getStatus()) {
            case SUCCESSFUL -> {
                synchronized (this) {
                    passed++;
                }
                line(rule(test), "passed", took(test), "");
            }
            case ABORTED ->
                skippedRule(
                        test, result.getThrowable().map(Throwable::getMessage).orElse(""));
            default ->
                failedRule(
                        rule(test),
                        took(test),
                        result.getThrowable().map(String::valueOf).orElse(""));
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        List<String> failed;
        synchronized (this) {
            failed = List.copyOf(failures);
            out.printf("%d passed, %d failed, %d skipped%n", passed, failed.size(), skipped);
        }
        if (!failed.isEmpty()) {
            out.println("failed:");
            failed.forEach(f -> out.println("  " + f));
        }
    }

    private void skippedRule(TestIdentifier test, String reason) {
        String rule = rule(test);
        if (rule.startsWith(REQUIRED) && !reason.contains(io.locksmith.tck.Fault.AS_DECLARED)) {
            failedRule(rule, took(test), "skipped, but a required rule must run: " + reason);
            return;
        }
        synchronized (this) {
            skipped++;
        }
        line(rule, "skipped", took(test), reason);
    }

    private void failedRule(String rule, String took, String reason) {
        synchronized (this) {
            failures.add(rule + ": " + oneLine(reason));
        }
        line(rule, "FAILED", took, reason);
    }

    private synchronized void line(String rule, String result, String took, String reason) {
        out.printf("%-" + width + "s  %-7s  %8s  %s%n", rule, result, took, oneLine(reason));
    }

    private String took(TestIdentifier test) {
        Long start = started.remove(test.getUniqueId());
        return start == null ? "-" : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms";
    }

    private static String rule(TestIdentifier test) {
        return test.getSource()
                .filter(MethodSource.class::isInstance)
                .map(MethodSource.class::cast)
                .map(MethodSource::getMethodName)
                .orElse(test.getDisplayName());
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replace('\n', ' ');
    }
}
