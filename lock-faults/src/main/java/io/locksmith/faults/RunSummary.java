package io.locksmith.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The raw counts of one run, read straight off its history: what the controller can say before
 * the {@code Checker} weighs a run against what the docs promise. One check here is already a
 * verdict: two workers whose <em>known-held</em> intervals overlap, each interval running from a
 * {@code GRANT} to that grant's last {@code HELD true} (conservative at both ends, so a correct
 * run never shows one: it samples {@code isHeld()} and stops at the first false, whatever its
 * {@code LOST} line says); so are a worker that crashed (a non-zero exit the controller did not
 * cause) and one that hung.
 *
 * @param grants       {@code GRANT} lines
 * @param overlaps     grants whose known-held interval overlaps another worker's
 * @param accepted     writes the ledger accepted
 * @param rejected     writes the ledger rejected (stale holders fenced off)
 * @param timeouts     waits that ended without the lock
 * @param errors       waits that ended with an error
 * @param faults       faults the controller injected (its lines other than {@code EXIT}, {@code HUNG}, {@code END})
 * @param crashed      workers that exited non-zero without being killed
 * @param hung         workers that did not stop when asked
 */
record RunSummary(int grants, int overlaps, int accepted, int rejected, int timeouts, int errors, int faults,
        int crashed, int hung) {

    /** Exit codes of a worker stopped by SIGTERM: its own clean stop, or the JVM's 143 (128 + TERM). */
    private static final Set<Integer> NORMAL_EXITS = Set.of(0, 143);

    static RunSummary of(History h) {
        int grants = 0;
        int accepted = 0;
        int rejected = 0;
        int timeouts = 0;
        int errors = 0;
        int faults = 0;
        int crashed = 0;
        int hung = 0;
        Set<String> killed = new HashSet<>();
        Map<String, long[]> open = new HashMap<>(); // worker -> {grant time, last HELD true}
        List<long[]> intervals = new ArrayList<>(); // {start, end, worker index}
        Map<String, Integer> index = new HashMap<>();
        for (Event e : h.events()) {
            switch (e.kind()) {
                case "GRANT" -> {
                    grants++;
                    close(open.put(e.source(), new long[] {e.nanos(), Long.MIN_VALUE}), e.source(), intervals, index);
                }
                case "HELD" -> {
                    long[] g = open.get(e.source());
                    if (g != null && Boolean.parseBoolean(e.field(0))) {
                        g[1] = e.nanos();
                    }
                }
                case "RELEASE", "STOP" -> close(open.remove(e.source()), e.source(), intervals, index);
                case "ACCEPT" -> accepted++;
                case "REJECT" -> rejected++;
                case "TIMEOUT" -> timeouts++;
                case "ERROR" -> errors++;
                case "KILL" -> {
                    killed.add(e.field(0));
                    faults++;
                }
                case "EXIT" -> {
                    if (!killed.contains(e.field(0)) && !NORMAL_EXITS.contains(Integer.parseInt(e.field(1)))) {
                        crashed++;
                    }
                }
                case "HUNG" -> hung++;
                default -> {
                    if (e.source().equals(Event.CONTROLLER) && !e.kind().equals("END")) {
                        faults++;
                    }
                }
            }
        }
        open.forEach((w, g) -> close(g, w, intervals, index));
        return new RunSummary(grants, overlaps(intervals), accepted, rejected, timeouts, errors, faults, crashed, hung);
    }

    private static void close(long[] grant, String worker, List<long[]> intervals, Map<String, Integer> index) {
        if (grant != null && grant[1] != Long.MIN_VALUE) {
            intervals.add(new long[] {grant[0], grant[1], index.computeIfAbsent(worker, w -> index.size())});
        }
    }

    /** Counts intervals that begin before another worker's earlier interval has ended. */
    private static int overlaps(List<long[]> intervals) {
        intervals.sort(Comparator.comparingLong(i -> i[0]));
        int count = 0;
        long[] latest = null;
        for (long[] i : intervals) {
            if (latest != null && i[0] < latest[1] && i[2] != latest[2]) {
                count++;
            }
            if (latest == null || i[1] > latest[1]) {
                latest = i;
            }
        }
        return count;
    }

    /** @return what breaks a promise; empty for a run that passes */
    List<String> violations() {
        List<String> v = new ArrayList<>();
        if (overlaps > 0) {
            v.add(overlaps + " overlapping holds");
        }
        if (crashed > 0) {
            v.add(crashed + " crashed workers");
        }
        if (hung > 0) {
            v.add(hung + " hung workers");
        }
        return v;
    }

    static String header() {
        return String.format("%-19s %-18s %7s %8s %8s %8s %8s %6s %6s %7s %4s  %s", "backend", "nemesis", "grants",
                "overlaps", "accepted", "rejected", "timeouts", "errors", "faults", "crashed", "hung", "verdict");
    }

    String row(String backend, String nemesis) {
        List<String> v = violations();
        return String.format("%-19s %-18s %7d %8d %8d %8d %8d %6d %6d %7d %4d  %s", backend, nemesis, grants, overlaps,
                accepted, rejected, timeouts, errors, faults, crashed, hung, v.isEmpty() ? "PASS" : "FAIL: " + String.join(", ", v));
    }
}
