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
 */
record Result(
        String backend,
        String scenario,
        double perSecond,
        double p50Micros,
        double p99Micros,
        double ratio,
        String note) {

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
                note);
    }

    String json() {
        return String.format(
                Locale.ROOT,
                "{\"backend\":\"%s\",\"scenario\":\"%s\",\"perSecond\":%.1f,\"p50Micros\":%.1f,"
                        + "\"p99Micros\":%.1f,\"ratioToFloor\":%s,\"note\":\"%s\"}",
                backend,
                scenario,
                perSecond,
                p50Micros,
                p99Micros,
                Double.isNaN(ratio) ? "null" : String.format(Locale.ROOT, "%.3f", ratio),
                note.replace("\"", "'"));
    }

    private static String number(double v) {
        return v < 0 ? "" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String micros(double v) {
        return v < 0 ? "" : String.format(Locale.ROOT, "%.1f µs", v);
    }
}
