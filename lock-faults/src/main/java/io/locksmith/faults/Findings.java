package io.locksmith.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the {@link Checker} found in one run's history: how often each {@link Kind} of fault
 * happened, how many of those the backend's docs admit (and why), a few example lines of each, and
 * the run's totals. Prints as one row of the backend × nemesis table ({@link #header()},
 * {@link #row(String, String)}).
 *
 * <p>A run passes when it has no {@link #violations()}; it passes <em>with documented
 * exceptions</em> when everything it found is admitted by the docs ({@link #exceptions()}).
 */
public final class Findings {

    /** How many example lines each kind keeps. */
    static final int EXAMPLES = 3;

    /** A fault the checker counts. */
    public enum Kind {
        /** Two grants' known-held intervals overlap. */
        DOUBLE_GRANT("double grants"),
        /** A holder sampled {@code isHeld() == true} after it was resumed, with another grant in between. */
        WOKE_BELIEVING("holders woke still believing"),
        /** The ledger accepted a grant's write after a later grant's write. */
        STALE_ACCEPTED("stale writes accepted"),
        /** The ledger rejected a holder's write although no later grant had written. */
        LIVE_REJECTED("live writes rejected"),
        /** A grant known to come after another carries a smaller token. */
        TOKEN_REGRESSION("token regressions"),
        /** Two grants carry one token. */
        DUPLICATE_TOKEN("duplicate tokens"),
        /** A killed holder's lock was granted again later than its lease plus the margin. */
        SLOW_DEATH_TO_GRANT("killed holders' locks freed late"),
        /** A wait ended with an error instead of a grant or a timeout. */
        WAIT_ERROR("waits ended by errors"),
        /** A worker exited with an unexpected code although nobody killed it. */
        CRASHED("crashed workers"),
        /** A worker did not stop when told to. */
        HUNG("hung workers"),
        /** A release left a waiter waiting longer than the backend's wake-up promise. */
        LOST_NOTIFICATION("lost notifications");

        private final String words;

        Kind(String words) {
            this.words = words;
        }

        /** @return the kind in plain words, plural: {@code double grants} */
        public String words() {
            return words;
        }
    }

    /** The run's totals, from the workers' and the ledger's lines. */
    record Totals(int attempts, int grants, int timeouts, int accepted, int rejected) {}

    private final Duration lease;
    private final Map<Kind, Integer> violations = new EnumMap<>(Kind.class);
    private final Map<Kind, Map<String, Integer>> documented = new EnumMap<>(Kind.class);
    private final Map<Kind, List<String>> examples = new EnumMap<>(Kind.class);
    private final Map<Kind, List<String>> documentedExamples = new EnumMap<>(Kind.class);
    private Totals totals = new Totals(0, 0, 0, 0, 0);
    private long worstDeathToGrantNanos = -1;
    private long worstWakeUpNanos = -1;
    private int waitErrorsInOutage;

    Findings(Duration lease) {
        this.lease = Objects.requireNonNull(lease, "lease");
    }

    /**
     * Counts one finding.
     *
     * @param kind    what was found
     * @param example the history lines that show it
     * @param reason  the doc section that admits it, or {@code null} if nothing does
     */
    void add(Kind kind, String example, String reason) {
        if (reason == null) {
            violations.merge(kind, 1, Integer::sum);
        } else {
            documented.computeIfAbsent(kind, k -> new LinkedHashMap<>()).merge(reason, 1, Integer::sum);
        }
        Map<Kind, List<String>> kept = reason == null ? examples : documentedExamples;
        List<String> list = kept.computeIfAbsent(kind, k -> new ArrayList<>());
        if (list.size() < EXAMPLES) {
            list.add(reason == null ? example : "[documented] " + example);
        }
    }

    void totals(Totals totals) {
        this.totals = totals;
    }

    void deathToGrant(long nanos) {
        worstDeathToGrantNanos = Math.max(worstDeathToGrantNanos, nanos);
    }

    void wakeUp(long nanos) {
        worstWakeUpNanos = Math.max(worstWakeUpNanos, nanos);
    }

    void waitErrorInOutage() {
        waitErrorsInOutage++;
    }

    /**
     * @param kind a kind of fault
     * @return how many were found, documented ones included
     */
    public int count(Kind kind) {
        return violations.getOrDefault(kind, 0) + documentedCount(kind);
    }

    /**
     * @param kind a kind of fault
     * @return how many of those the docs admit
     */
    public int documentedCount(Kind kind) {
        return documented.getOrDefault(kind, Map.of()).values().stream()
                .mapToInt(Integer::intValue)
                .sum();
    }

    /**
     * @param kind a kind of fault
     * @return up to three violations of that kind, then up to three documented ones (marked
     *         {@code [documented]}), each as the history lines that show it
     */
    public List<String> examples(Kind kind) {
        List<String> all = new ArrayList<>(examples.getOrDefault(kind, List.of()));
        all.addAll(documentedExamples.getOrDefault(kind, List.of()));
        return List.copyOf(all);
    }

    /** @return what breaks a promise, one line per kind: {@code 2 double grants, e.g. …} */
    public List<String> violations() {
        List<String> lines = new ArrayList<>();
        violations.forEach((kind, n) -> lines.add(
                n + " " + kind.words() + ", e.g. " + examples.get(kind).get(0)));
        return lines;
    }

    /** @return what the docs admit, one line per kind and reason: {@code 2 token regressions (documented: …)} */
    public List<String> exceptions() {
        List<String> lines = new ArrayList<>();
        documented.forEach((kind, reasons) ->
                reasons.forEach((reason, n) -> lines.add(n + " " + kind.words() + " (documented: " + reason + ")")));
        return lines;
    }

    /** @return {@code PASS}, {@code FAIL} or {@code PASS with documented exceptions} */
    public String verdict() {
        if (!violations.isEmpty()) {
            return "FAIL";
        }
        return documented.isEmpty() ? "PASS" : "PASS with documented exceptions";
    }

    /** @return whether nothing breaks a promise (documented exceptions allowed) */
    public boolean passed() {
        return violations.isEmpty();
    }

    /** @return the longest time from a holder's kill to the next grant, if a holder was killed */
    public Optional<Duration> worstDeathToGrant() {
        return worstDeathToGrantNanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(worstDeathToGrantNanos));
    }

    /** @return the longest wait for the next grant after a lost notification, if there was one */
    public Optional<Duration> worstLostNotification() {
        return worstWakeUpNanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(worstWakeUpNanos));
    }

    /** @return how many waits ended by errors happened while a server or network nemesis was active */
    public int waitErrorsInOutage() {
        return waitErrorsInOutage;
    }

    /** @return the number of grants in the run */
    public int grants() {
        return totals.grants();
    }

    /** @return the number of waits begun */
    public int attempts() {
        return totals.attempts();
    }

    /** @return the number of waits that ended without the lock */
    public int timeouts() {
        return totals.timeouts();
    }

    /** @return the number of writes the ledger accepted */
    public int writesAccepted() {
        return totals.accepted();
    }

    /** @return the number of writes the ledger rejected */
    public int writesRejected() {
        return totals.rejected();
    }

    Duration lease() {
        return lease;
    }

    /** @return the table's header line, matching {@link #row(String, String)} */
    public static String header() {
        return FindingsTable.header();
    }

    /**
     * @param backend the row's backend
     * @param nemesis the row's nemesis
     * @return the findings as one table row
     */
    public String row(String backend, String nemesis) {
        return FindingsTable.row(backend, nemesis, this);
    }

    /** @return the verdict, then every violation and documented exception with its example lines */
    public String report() {
        StringBuilder b = new StringBuilder(verdict()).append('\n');
        for (Kind kind : Kind.values()) {
            if (count(kind) == 0) {
                continue;
            }
            b.append("  ").append(count(kind)).append(' ').append(kind.words());
            if (documentedCount(kind) > 0) {
                b.append(" (").append(documentedCount(kind)).append(" documented)");
            }
            b.append('\n');
            for (String e : examples(kind)) {
                b.append("    ").append(e).append('\n');
            }
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return verdict() + " " + violations() + " " + exceptions();
    }
}
