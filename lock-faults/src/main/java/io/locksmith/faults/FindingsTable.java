package io.locksmith.faults;

import io.locksmith.faults.Findings.Kind;
import java.time.Duration;
import java.util.List;

/**
 * Lays {@link Findings} out as rows of the backend × nemesis table, in fixed-width columns. A count
 * the docs admit in part shows them with a star, {@code 3 (2*)}; admitted in full, {@code 2*}.
 */
final class FindingsTable {

    private record Column(String title, int width) {}

    private static final List<Column> COLUMNS = List.of(
            new Column("backend", 19),
            new Column("nemesis", 18),
            new Column("grants", 7),
            new Column("attempts/timeouts", 18),
            new Column("writes ok/rejected", 19),
            new Column("double", 7),
            new Column("woke", 5),
            new Column("stale ok", 9),
            new Column("live rej", 9),
            new Column("regress/dup", 12),
            new Column("death→grant ms", 25),
            new Column("wait errors", 12),
            new Column("crash/hung", 11),
            new Column("lost wake-ups", 14),
            new Column("verdict", 0));

    private FindingsTable() {}

    static String header() {
        return line(COLUMNS.stream().map(Column::title).toList())
                + "\n  (n* : admitted by the docs; wait errors* : during an outage; death→grant: worst, vs the lease)";
    }

    static String row(String backend, String nemesis, Findings f) {
        String late = f.count(Kind.SLOW_DEATH_TO_GRANT) > 0 ? ", " + cell(f, Kind.SLOW_DEATH_TO_GRANT) + " late" : "";
        String deathToGrant = f.worstDeathToGrant()
                .map(d -> millis(d) + " (lease " + millis(f.lease()) + late + ")")
                .orElse("-");
        String lost = cell(f, Kind.LOST_NOTIFICATION)
                + f.worstLostNotification().map(d -> " (" + millis(d) + ")").orElse("");
        return line(List.of(
                backend,
                nemesis,
                Integer.toString(f.grants()),
                f.attempts() + "/" + f.timeouts(),
                f.writesAccepted() + "/" + f.writesRejected(),
                cell(f, Kind.DOUBLE_GRANT),
                cell(f, Kind.WOKE_BELIEVING),
                cell(f, Kind.STALE_ACCEPTED),
                cell(f, Kind.LIVE_REJECTED),
                cell(f, Kind.TOKEN_REGRESSION) + "/" + cell(f, Kind.DUPLICATE_TOKEN),
                deathToGrant,
                cell(f, Kind.WAIT_ERROR),
                cell(f, Kind.CRASHED) + "/" + cell(f, Kind.HUNG),
                lost,
                f.verdict()));
    }

    private static String cell(Findings f, Kind kind) {
        int all = f.count(kind);
        int admitted = f.documentedCount(kind);
        if (admitted == 0) {
            return Integer.toString(all);
        }
        return admitted == all ? all + "*" : all + " (" + admitted + "*)";
    }

    private static long millis(Duration d) {
        return d.toMillis();
    }

    private static String line(List<String> cells) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            int width = COLUMNS.get(i).width();
            b.append(cell);
            if (width > 0) {
                b.append(" ".repeat(Math.max(1, width - cell.length())));
            }
        }
        return b.toString().stripTrailing();
    }
}
