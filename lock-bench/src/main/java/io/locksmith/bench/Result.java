package io.locksmith.bench;

import java.util.Locale;

/**
 * One measured figure.
 *
 * @param backend the backend
 * @param scenario the scenario
 * @param perSecond operations (pairs or grants) per second
 * @param p50Micros the median latency in microseconds, or -1
 * @param p99Micros the 99th percentile latency in microseconds, or -1
 * @param ratio the figure as a ratio to the floor, or NaN
 * @param note what else to know (handoff, round trips)
 * @param fairness the contended scenario's figures beyond rate and latency, or null
 */
record Result(
        String backend,
        String scenario,
        double perSecond,
        double p50Micros,
        double p99Micros,
        double ratio,
        String note,
        Fairness fairness) {

    Result(
            String backend,
            String scenario,
            double perSecond,
            double p50Micros,
            double p99Micros,
            double ratio,
            String note) {
        this(backend, scenario, perSecond, p50Micros, p99Micros, ratio, note, null);
    }

    /**
     * How evenly a contended run's grants fell and how long its slowest waits were.
     *
     * @param fairness fewest grants of one client ÷ most
     * @param fewest the fewest grants of one client
     * @param most the most grants of one client
     * @param p999Micros the wait's 99.9th percentile in microseconds
     * @param tailRatio the wait's 99.9th percentile ÷ its median
     * @param longestStreak the most consecutive grants to one client
     */
    record Fairness(double fairness, long fewest, long most, double p999Micros, double tailRatio, int longestStreak) {

        String markdown() {
            return String.format(
                    Locale.ROOT,
                    "fairness %.2f (%,d ÷ %,d grants); wait p99.9 %.1f µs = %.1f × p50; longest streak %,d",
                    fairness,
                    fewest,
                    most,
                    p999Micros,
                    tailRatio,
                    longestStreak);
        }

        String json() {
            return String.format(
                    Locale.ROOT,
                    "{\"fairness\":%s,\"fewestGrants\":%d,\"mostGrants\":%d,\"p999Micros\":%.1f,"
                            + "\"p999OverP50\":%s,\"longestStreak\":%d}",
                    finite(fairness, "%.3f"),
                    fewest,
                    most,
                    p999Micros,
                    finite(tailRatio, "%.2f"),
                    longestStreak);
        }
    }

    String markdownRow() {
        return String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | %s | %s | %s |",
                backend,
                scenario,
                number(perSecond),
                micros(p50Micros),
                micros(p99Micros),
                Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.2f", ratio),
                fairness == null ? note : note.isEmpty() ? fairness.markdown() : fairness.markdown() + "; " + note);
    }

    String json() {
        return String.format(
                Locale.ROOT,
                "{\"backend\":\"%s\",\"scenario\":\"%s\",\"perSecond\":%.1f,\"p50Micros\":%.1f,"
                        + "\"p99Micros\":%.1f,\"ratioToFloor\":%s,\"note\":\"%s\"%s}",
                backend,
                scenario,
                perSecond,
                p50Micros,
                p99Micros,
                Double.isNaN(ratio) ? "null" : String.format(Locale.ROOT, "%.3f", ratio),
                note.replace("\"", "'"),
                fairness == null ? "" : ",\"contention\":" + fairness.json());
    }

    private static String finite(double v, String format) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, format, v) : "null";
    }

    private static String number(double v) {
        return v < 0 ? "" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String micros(double v) {
        return v < 0 ? "" : String.format(Locale.ROOT, "%.1f µs", v);
    }
}
