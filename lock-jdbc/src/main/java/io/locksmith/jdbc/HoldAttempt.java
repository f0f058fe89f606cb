package io.locksmith.jdbc;

import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;

/**
 * One attempt on a semaphore or read-write lock key, as one short transaction on the connection
 * it is given: it creates or locks the key's header row (which orders attempts on one key), locks
 * and reads the key's rows, drops those whose lease ran out by the database's clock, and decides.
 * A grant bumps the header's token counter and writes its row in the same transaction, so tokens
 * are taken at grant time; a writer that finds the key held leaves its waiting mark.
 */
final class HoldAttempt {

    private final HoldTable table;
    private final int timeoutSeconds;
    private final BooleanSupplier hintsHeard;

    /**
     * @param hintsHeard whether a waiter told a remaining lease will be woken by a release (false
     *     while PostgreSQL's listener is down: waiters must then poll)
     */
    HoldAttempt(HoldTable table, int timeoutSeconds, BooleanSupplier hintsHeard) {
        this.table = table;
        this.timeoutSeconds = timeoutSeconds;
        this.hintsHeard = hintsHeard;
    }

    /** One row of a key: a holder or a waiting writer's mark. */
    private record Row(String owner, String kind, long token, long remainingMillis, boolean live) {}

    /** What an attempt's transaction decided; a mismatch is thrown after it ends. */
    record Outcome(AcquireResult result, int heldPermits) {}

    /**
     * @param values the request's named parameters ({@link JdbcHolds#values})
     * @return the grant or held, or the permits the key's holders agreed on if the request's differ
     */
    Outcome run(Connection c, AcquireRequest request, Map<String, Object> values) throws SQLException {
        return inTransaction(c, () -> decide(c, request, values));
    }

    private Outcome decide(Connection c, AcquireRequest request, Map<String, Object> values) throws SQLException {
        long[] header = header(c, values);
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement s = table.rows.prepare(c, values, timeoutSeconds);
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                rows.add(new Row(
                        rs.getString(1), rs.getString(2).trim(), rs.getLong(3), rs.getLong(4), rs.getBoolean(5)));
            }
        }
        if (rows.stream().anyMatch(r -> !r.live())) {
            try (PreparedStatement s = table.purge.prepare(c, values, timeoutSeconds)) {
                s.executeUpdate();
            }
        }
        String kind = JdbcHolds.kindCode(request.hold().kind());
        List<Row> others = new ArrayList<>();
        for (Row r : rows) {
            if (!r.live()) {
                continue;
            }
            if (r.owner().equals(request.owner())) {
                if (r.kind().equals(kind)) {
                    // a retried attempt whose first answer was lost: the same grant, its lease restarted
                    put(c, values, kind, r.token(), request.lease());
                    return new Outcome(Grant.of(r.token()), 0);
                }
            } else {
                others.add(r);
            }
        }
        int permits = 0;
        switch (request.hold().kind()) {
            case PERMIT -> {
                permits = request.hold().permits();
                List<Row> holders =
                        others.stream().filter(r -> r.kind().equals("P")).toList();
                if (!holders.isEmpty() && header[0] != permits) {
                    return new Outcome(null, (int) header[0]);
                }
                if (holders.size() >= permits) {
                    return new Outcome(
                            held(holders.stream()
                                    .mapToLong(Row::remainingMillis)
                                    .min()),
                            0);
                }
            }
            case READ -> {
                List<Row> writers =
                        others.stream().filter(r -> r.kind().equals("W")).toList();
                if (!writers.isEmpty()) {
                    return new Outcome(
                            held(writers.stream()
                                    .mapToLong(Row::remainingMillis)
                                    .min()),
                            0);
                }
                if (others.stream().anyMatch(r -> r.kind().equals("M"))) {
                    return new Outcome(Held.UNKNOWN, 0); // a writer waits: it goes first, and its turn is soon
                }
            }
            case WRITE -> {
                List<Row> holders =
                        others.stream().filter(r -> !r.kind().equals("M")).toList();
                if (!holders.isEmpty()) {
                    put(c, values, "M", 0, request.lease().multipliedBy(2));
                    return new Outcome(
                            held(holders.stream()
                                    .mapToLong(Row::remainingMillis)
                                    .max()),
                            0);
                }
            }
            default -> throw new IllegalArgumentException("not a hold of the holds table: " + request.hold());
        }
        long token = header[1] + 1;
        Map<String, Object> grant = new HashMap<>(values);
        grant.put("token", token);
        grant.put("permits", permits);
        if (table.grant != null) {
            try (PreparedStatement s = table.grant.prepare(c, grant, timeoutSeconds)) {
                s.executeUpdate();
            }
        } else {
            try (PreparedStatement s = table.bump.prepare(c, grant, timeoutSeconds)) {
                s.executeUpdate();
            }
            put(c, values, kind, token, request.lease());
        }
        return new Outcome(Grant.of(token), 0);
    }

    /** @return the header's permits and token, the row locked until the transaction ends */
    private long[] header(Connection c, Map<String, Object> values) throws SQLException {
        if (table.headerRead == null) {
            try (PreparedStatement s = table.header.prepare(c, values, timeoutSeconds);
                    ResultSet rs = s.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
        try (PreparedStatement s = table.header.prepare(c, values, timeoutSeconds)) {
            s.executeUpdate();
        } catch (SQLException e) {
            if (!SqlErrors.duplicateKey(e)) {
                throw e;
            }
            // another session created the header first (H2's MERGE); it is there to lock now
        }
        try (PreparedStatement s = table.headerRead.prepare(c, values, timeoutSeconds);
                ResultSet rs = s.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("the header row of a key vanished from " + table.name(), "40001");
            }
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    private void put(Connection c, Map<String, Object> values, String kind, long token, Duration lease)
            throws SQLException {
        Map<String, Object> row = new HashMap<>(values);
        row.put("kind", kind);
        row.put("token", token);
        row.put("lease_ms", lease.toMillis());
        row.put("lease_us", lease.toNanos() / 1000);
        try (PreparedStatement s = table.put.prepare(c, row, timeoutSeconds)) {
            s.executeUpdate();
        }
    }

    private AcquireResult held(OptionalLong remainingMillis) {
        if (remainingMillis.isEmpty() || !hintsHeard.getAsBoolean()) {
            return Held.UNKNOWN;
        }
        return Held.remaining(Duration.ofMillis(Math.max(0, remainingMillis.getAsLong())));
    }

    private interface Step<T> {
        T run() throws SQLException;
    }

    /**
     * Runs the step in one transaction on the connection and hands the connection back in
     * autocommit mode; if it cannot be, the failure says the connection is broken, so the pool
     * drops it.
     */
    private <T> T inTransaction(Connection c, Step<T> step) throws SQLException {
        if (table.begin != null) {
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout(timeoutSeconds);
                s.execute(table.begin.text());
            }
            try {
                T result = step.run();
                try (Statement s = c.createStatement()) {
                    s.execute("COMMIT");
                }
                return result;
            } catch (SQLException | RuntimeException e) {
                try (Statement s = c.createStatement()) {
                    s.execute("ROLLBACK");
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                    throw new SQLException("could not roll back an attempt on " + table.name(), "08003", e);
                }
                throw e;
            }
        }
        c.setAutoCommit(false);
        try {
            T result = step.run();
            c.commit();
            c.setAutoCommit(true);
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
                c.setAutoCommit(true);
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
                throw new SQLException("could not roll back an attempt on " + table.name(), "08003", e);
            }
            throw e;
        }
    }
}
