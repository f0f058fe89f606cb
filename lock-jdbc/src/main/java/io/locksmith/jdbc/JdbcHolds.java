package io.locksmith.jdbc;

import io.locksmith.LockConfigurationException;
import io.locksmith.PermitMismatchException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.RenewOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Semaphores' permits and read-write locks' reads and writes in the {@link HoldTable}. An attempt
 * is one short transaction: it creates or locks the key's header row (which orders attempts on
 * one key), locks and reads the key's rows, drops those whose lease ran out by the database's
 * clock, and decides; a grant bumps the header's token counter and writes its row in the same
 * transaction, so tokens are taken at grant time. Renewal, release and abandon are one
 * autocommit statement each (renewal one per tick), as for locks.
 *
 * <p>A family is a column of the table ({@code 'S'} semaphores, {@code 'R'} read-write locks),
 * and locks live in another table: the lock, semaphore and read-write lock of one key never meet.
 */
final class JdbcHolds {

    /** How often an attempt that lost a deadlock or serialisation race runs again at once. */
    private static final int RACE_RETRIES = 3;

    private final HoldTable table;
    private final Calls calls;
    private final int timeoutSeconds;
    private final String description;
    private final String channel;
    private final BooleanSupplier hintsHeard;

    /**
     * @param hintsHeard whether a waiter told a remaining lease will be woken by a release (false
     *     while PostgreSQL's listener is down: waiters must then poll)
     */
    JdbcHolds(
            HoldTable table,
            Calls calls,
            int timeoutSeconds,
            String description,
            String channel,
            BooleanSupplier hintsHeard) {
        this.table = table;
        this.calls = calls;
        this.timeoutSeconds = timeoutSeconds;
        this.description = description;
        this.channel = channel;
        this.hintsHeard = hintsHeard;
    }

    /** One row of a key: a holder or a waiting writer's mark. */
    private record Row(String owner, String kind, long token, long remainingMillis, boolean live) {}

    /** What an attempt's transaction decided; a mismatch is thrown after it ends. */
    private record Outcome(AcquireResult result, int heldPermits) {}

    AcquireResult tryAcquire(AcquireRequest request) {
        table.unavailable().ifPresent(reason -> {
            throw new LockConfigurationException(reason);
        });
        Map<String, Object> values = values(request.key(), request.owner(), request.hold(), 0, request.lease());
        Outcome outcome = calls.call("acquire", request.name(), c -> {
            for (int attempt = 1; ; attempt++) {
                try {
                    return inTransaction(c, () -> attempt(c, request, values));
                } catch (SQLException e) {
                    if (attempt >= RACE_RETRIES || !SqlErrors.lostRace(e)) {
                        throw e;
                    }
                }
            }
        });
        if (outcome.heldPermits() > 0) {
            throw new PermitMismatchException(
                    request.name(), outcome.heldPermits(), request.hold().permits(), description);
        }
        return outcome.result();
    }

    private Outcome attempt(Connection c, AcquireRequest request, Map<String, Object> values) throws SQLException {
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
        String kind = kindCode(request.hold().kind());
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

    private AcquireResult held(java.util.OptionalLong remainingMillis) {
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

    /** The permits, reads and writes of one tick, on the connection of the tick's call. */
    void renew(Connection c, List<HeldLease> leases, RenewOutcome[] outcomes) throws SQLException {
        // in key order, as the rows' locks are taken by attempts: never a cycle
        List<Integer> order = new ArrayList<>(leases.size());
        List<String> keys = new ArrayList<>(leases.size());
        for (int i = 0; i < leases.size(); i++) {
            HeldLease l = leases.get(i);
            order.add(i);
            keys.add(family(l.hold().kind()) + ' ' + Keys.hash(l.key()) + ' ' + l.owner());
        }
        order.sort(Comparator.comparing(keys::get));
        if (table.renewAll != null) {
            renewAll(c, leases, order, keys, outcomes);
            return;
        }
        for (int from = 0; from < order.size(); from += JdbcBackend.RENEW_BATCH) {
            List<Integer> batch = order.subList(from, Math.min(order.size(), from + JdbcBackend.RENEW_BATCH));
            try (PreparedStatement s = c.prepareStatement(table.renew.text())) {
                s.setQueryTimeout(timeoutSeconds);
                for (int i : batch) {
                    HeldLease l = leases.get(i);
                    table.renew.bind(s, values(l.key(), l.owner(), l.hold(), l.token(), l.lease()));
                    s.addBatch();
                }
                int[] counts = s.executeBatch();
                for (int j = 0; j < batch.size(); j++) {
                    if (counts[j] < 0) {
                        throw new SQLException(
                                "the driver did not report how many rows renewal " + j + " changed (" + counts[j] + ")",
                                "HY000");
                    }
                    outcomes[batch.get(j)] = counts[j] > 0 ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED;
                }
            }
        }
    }

    private void renewAll(
            Connection c, List<HeldLease> leases, List<Integer> order, List<String> keys, RenewOutcome[] outcomes)
            throws SQLException {
        int n = order.size();
        String[] families = new String[n];
        String[] hashes = new String[n];
        String[] owners = new String[n];
        Long[] tokens = new Long[n];
        Long[] leaseMillis = new Long[n];
        for (int j = 0; j < n; j++) {
            HeldLease l = leases.get(order.get(j));
            families[j] = family(l.hold().kind());
            hashes[j] = Keys.hash(l.key());
            owners[j] = l.owner();
            tokens[j] = l.token();
            leaseMillis[j] = l.lease().toMillis();
        }
        Map<String, Object> values = new HashMap<>();
        values.put("families", c.createArrayOf("text", families));
        values.put("key_hashes", c.createArrayOf("text", hashes));
        values.put("owners", c.createArrayOf("text", owners));
        values.put("tokens", c.createArrayOf("bigint", tokens));
        values.put("leases_ms", c.createArrayOf("bigint", leaseMillis));
        Set<String> renewed = new HashSet<>();
        try (PreparedStatement s = table.renewAll.prepare(c, values, timeoutSeconds);
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                renewed.add(rs.getString(1).trim() + ' ' + rs.getString(2).trim() + ' ' + rs.getString(3));
            }
        }
        for (int i = 0; i < leases.size(); i++) {
            outcomes[i] = renewed.contains(keys.get(i)) ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED;
        }
    }

    boolean release(HeldLease lease) {
        return free(
                "release",
                table.release,
                lease.name(),
                values(lease.key(), lease.owner(), lease.hold(), lease.token(), lease.lease()));
    }

    /** Removes the request's row, a grant whose answer was lost or a waiting writer's mark. */
    void abandon(AcquireRequest request) {
        if (table.unavailable().isEmpty()) {
            free(
                    "abandon",
                    table.abandon,
                    request.name(),
                    values(request.key(), request.owner(), request.hold(), 0, request.lease()));
        }
    }

    /** PostgreSQL's statements return a row per row freed (and notify), the others a count. */
    private boolean free(String what, NamedSql statement, String lockName, Map<String, Object> values) {
        return calls.call(what, lockName, c -> {
            try (PreparedStatement s = statement.prepare(c, values, timeoutSeconds)) {
                if (table.dialect().notifies()) {
                    try (ResultSet rs = s.executeQuery()) {
                        return rs.next();
                    }
                }
                return s.executeUpdate() > 0;
            }
        });
    }

    /** The key's holders, both sides for a read-write lock, in grant order. */
    List<LockInspector.Holder> holders(String key, Hold.Kind kind) {
        if (kind == Hold.Kind.EXCLUSIVE || table.unavailable().isPresent()) {
            return List.of();
        }
        Map<String, Object> values = Map.of("family", family(kind), "key_hash", Keys.hash(key));
        return calls.call("inspect", key, c -> {
            List<LockInspector.Holder> holders = new ArrayList<>();
            try (PreparedStatement s = table.list.prepare(c, values, timeoutSeconds);
                    ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    holders.add(new LockInspector.Holder(
                            kindOf(rs.getString(2).trim()),
                            new LockInspector.HolderState(
                                    rs.getString(1), rs.getLong(3), Duration.ofMillis(Math.max(0, rs.getLong(4))))));
                }
            }
            return holders;
        });
    }

    /** The named parameters the holds statements draw from; each uses the ones its header lists. */
    private Map<String, Object> values(String key, String owner, Hold hold, long token, Duration lease) {
        Map<String, Object> v = new HashMap<>();
        v.put("family", family(hold.kind()));
        v.put("key_hash", Keys.hash(key));
        v.put("key", key);
        v.put("owner", owner);
        v.put("kind", kindCode(hold.kind()));
        v.put("permits", hold.kind() == Hold.Kind.PERMIT ? hold.permits() : 0);
        v.put("token", token);
        v.put("lease_ms", lease.toMillis());
        v.put("lease_us", lease.toNanos() / 1000);
        v.put("channel", channel);
        return v;
    }

    /** @return the family's namespace in the table: semaphores, or read-write locks */
    private static String family(Hold.Kind kind) {
        return kind == Hold.Kind.PERMIT ? "S" : "R";
    }

    private static String kindCode(Hold.Kind kind) {
        return switch (kind) {
            case PERMIT -> "P";
            case READ -> "R";
            case WRITE -> "W";
            case EXCLUSIVE -> throw new IllegalArgumentException("locks are kept in the lock table");
        };
    }

    private static Hold.Kind kindOf(String code) {
        return switch (code) {
            case "P" -> Hold.Kind.PERMIT;
            case "R" -> Hold.Kind.READ;
            default -> Hold.Kind.WRITE;
        };
    }
}
