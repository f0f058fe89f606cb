package io.locksmith.jdbc;

import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Locks in one database table. Every primitive is one autocommit statement (two for an attempt
 * on MariaDB, MySQL and H2, whose upserts cannot return the row), so no transaction is ever held
 * while anyone waits, and every lease is measured by the database's clock inside the statement.
 */
final class JdbcBackend implements LockBackend {

    /** Renewal batches larger than this are sent as several batches, to bound each statement. */
    static final int RENEW_BATCH = 500;

    private final ConnectionPool pool;
    private final Calls calls;
    private final LockTable table;
    private final JdbcHolds holds;
    private final PgSignals signals;
    private final int timeoutSeconds;
    private final String description;
    private final String channel;

    JdbcBackend(
            ConnectionPool pool,
            LockTable table,
            HoldTable holdTable,
            PgSignals signals,
            int timeoutSeconds,
            String description) {
        this.pool = pool;
        this.calls = new Calls(pool, description);
        this.table = table;
        this.signals = signals;
        this.timeoutSeconds = timeoutSeconds;
        this.description = description;
        this.channel = Keys.channel(table.name());
        this.holds = new JdbcHolds(
                holdTable, calls, timeoutSeconds, description, channel, () -> signals == null || signals.listening());
    }

    @Override
    public String description() {
        return description;
    }

    /** Leases are timestamps of millisecond precision or better; shorter than 10 ms is no lease. */
    @Override
    public Duration minimumLease() {
        return Duration.ofMillis(10);
    }

    /** Locks, and semaphores and read-write locks in the holds table ({@link JdbcHolds}). */
    @Override
    public Set<Hold.Kind> holds() {
        return EnumSet.allOf(Hold.Kind.class);
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        if (request.hold().kind() != Hold.Kind.EXCLUSIVE) {
            return holds.tryAcquire(request);
        }
        Map<String, Object> values = values(request.key(), request.owner(), 0, request.lease());
        return call(
                "acquire", request.name(), c -> table.dialect().readsBack() ? takeAndRead(c, values) : take(c, values));
    }

    /** PostgreSQL, SQLite: the upsert returns the token, or the holder's remaining lease. */
    private AcquireResult take(Connection c, Map<String, Object> values) throws SQLException {
        try (PreparedStatement s = table.acquire.prepare(c, values, timeoutSeconds);
                ResultSet rs = s.executeQuery()) {
            return rs.next() ? result(rs) : Held.UNKNOWN;
        }
    }

    /** MariaDB, MySQL, H2: the upsert, then a read of whether it took the row. */
    private AcquireResult takeAndRead(Connection c, Map<String, Object> values) throws SQLException {
        try (PreparedStatement s = table.acquire.prepare(c, values, timeoutSeconds)) {
            s.executeUpdate();
        } catch (SQLException e) {
            if (!SqlErrors.duplicateKey(e)) {
                throw e;
            }
            // another session inserted the same new key first (H2); now the row exists to compare with
            try (PreparedStatement s = table.acquire.prepare(c, values, timeoutSeconds)) {
                s.executeUpdate();
            }
        }
        try (PreparedStatement s = table.acquireRead.prepare(c, values, timeoutSeconds);
                ResultSet rs = s.executeQuery()) {
            return rs.next() ? result(rs) : Held.UNKNOWN;
        }
    }

    private AcquireResult result(ResultSet rs) throws SQLException {
        long token = rs.getLong(1);
        if (!rs.wasNull()) {
            return Grant.of(token);
        }
        long remaining = rs.getLong(2);
        if (rs.wasNull() || (signals != null && !signals.listening())) {
            return Held.UNKNOWN; // without a working signal, a waiter must not sleep out the holder's lease
        }
        return Held.remaining(Duration.ofMillis(remaining));
    }

    /**
     * One call per tick: the locks' statement as ever, and the other kinds' statement on the same
     * connection when the tick has any.
     */
    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        if (leases.stream().allMatch(l -> l.hold().kind() == Hold.Kind.EXCLUSIVE)) {
            return renewLocks(leases);
        }
        List<HeldLease> locks = new ArrayList<>();
        List<HeldLease> others = new ArrayList<>();
        for (HeldLease l : leases) {
            (l.hold().kind() == Hold.Kind.EXCLUSIVE ? locks : others).add(l);
        }
        RenewOutcome[] lockOutcomes = new RenewOutcome[locks.size()];
        RenewOutcome[] otherOutcomes = new RenewOutcome[others.size()];
        call("renew", leases.get(0).name(), c -> {
            if (!locks.isEmpty()) {
                renewLocks(c, locks, lockOutcomes);
            }
            holds.renew(c, others, otherOutcomes);
            return null;
        });
        List<RenewOutcome> outcomes = new ArrayList<>(leases.size());
        int nextLock = 0;
        int nextOther = 0;
        for (HeldLease l : leases) {
            outcomes.add(
                    l.hold().kind() == Hold.Kind.EXCLUSIVE ? lockOutcomes[nextLock++] : otherOutcomes[nextOther++]);
        }
        return outcomes;
    }

    private List<RenewOutcome> renewLocks(List<HeldLease> leases) {
        RenewOutcome[] outcomes = new RenewOutcome[leases.size()];
        call("renew", leases.get(0).name(), c -> {
            renewLocks(c, leases, outcomes);
            return null;
        });
        return List.of(outcomes);
    }

    private void renewLocks(Connection c, List<HeldLease> leases, RenewOutcome[] outcomes) throws SQLException {
        // one batch per tick, in key order: concurrent batches then lock rows in one order, never a cycle
        List<Integer> order = new ArrayList<>(leases.size());
        List<String> hashes = new ArrayList<>(leases.size());
        for (int i = 0; i < leases.size(); i++) {
            order.add(i);
            hashes.add(Keys.hash(leases.get(i).key()));
        }
        order.sort(Comparator.comparing(hashes::get));
        if (table.renewAll != null) {
            renewAll(c, leases, hashes, outcomes);
            return;
        }
        for (int from = 0; from < order.size(); from += RENEW_BATCH) {
            renewBatch(c, leases, hashes, order.subList(from, Math.min(order.size(), from + RENEW_BATCH)), outcomes);
        }
    }

    /** The whole tick in one statement, with the leases passed as arrays (PostgreSQL). */
    private void renewAll(Connection c, List<HeldLease> leases, List<String> hashes, RenewOutcome[] outcomes)
            throws SQLException {
        int n = leases.size();
        String[] owners = new String[n];
        Long[] tokens = new Long[n];
        Long[] leaseMillis = new Long[n];
        for (int i = 0; i < n; i++) {
            owners[i] = leases.get(i).owner();
            tokens[i] = leases.get(i).token();
            leaseMillis[i] = leases.get(i).lease().toMillis();
        }
        Map<String, Object> values = new HashMap<>();
        values.put("key_hashes", c.createArrayOf("text", hashes.toArray()));
        values.put("owners", c.createArrayOf("text", owners));
        values.put("tokens", c.createArrayOf("bigint", tokens));
        values.put("leases_ms", c.createArrayOf("bigint", leaseMillis));
        java.util.Set<String> renewed = new java.util.HashSet<>();
        try (PreparedStatement s = table.renewAll.prepare(c, values, timeoutSeconds);
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                renewed.add(rs.getString(1).trim() + ' ' + rs.getString(2));
            }
        }
        for (int i = 0; i < n; i++) {
            outcomes[i] =
                    renewed.contains(hashes.get(i) + ' ' + owners[i]) ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED;
        }
    }

    private void renewBatch(
            Connection c, List<HeldLease> leases, List<String> hashes, List<Integer> batch, RenewOutcome[] outcomes)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(table.renew.text())) {
            s.setQueryTimeout(timeoutSeconds);
            for (int i : batch) {
                HeldLease l = leases.get(i);
                Map<String, Object> values = values(l.key(), l.owner(), l.token(), l.lease());
                values.put("key_hash", hashes.get(i));
                table.renew.bind(s, values);
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

    @Override
    public boolean release(HeldLease lease) {
        if (lease.hold().kind() != Hold.Kind.EXCLUSIVE) {
            return holds.release(lease);
        }
        return free(
                "release",
                table.release,
                lease.name(),
                values(lease.key(), lease.owner(), lease.token(), lease.lease()));
    }

    /**
     * Frees the row if the request's owner holds it: the attempt may have committed although its
     * answer never arrived. Owner ids are unique per acquisition, so no token is needed.
     */
    @Override
    public void abandon(AcquireRequest request) {
        if (request.hold().kind() != Hold.Kind.EXCLUSIVE) {
            holds.abandon(request);
            return;
        }
        free("abandon", table.abandon, request.name(), values(request.key(), request.owner(), 0, request.lease()));
    }

    /** Runs a release-like statement: PostgreSQL's return a row per lock freed (and notify), the others a count. */
    private boolean free(String what, NamedSql statement, String lockName, Map<String, Object> values) {
        return call(what, lockName, c -> {
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

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return Optional.ofNullable(signals);
    }

    /**
     * A lock: reads the key's row, a holder while its owner is set and its lease runs by the
     * database's clock. A semaphore or read-write lock: lists the key's holders in the holds table.
     */
    @Override
    public Optional<LockInspector> inspector() {
        return Optional.of(new LockInspector() {
            @Override
            public Optional<HolderState> inspect(String key) {
                return call("inspect", key, c -> {
                    Map<String, Object> values = Map.of("key_hash", Keys.hash(key));
                    try (PreparedStatement s = table.inspect.prepare(c, values, timeoutSeconds);
                            ResultSet rs = s.executeQuery()) {
                        if (!rs.next()) {
                            return Optional.<HolderState>empty();
                        }
                        return Optional.of(new HolderState(
                                rs.getString(1), rs.getLong(2), Duration.ofMillis(Math.max(0, rs.getLong(3)))));
                    }
                });
            }

            @Override
            public Optional<List<Holder>> holders(String key, Hold.Kind kind) {
                return kind == Hold.Kind.EXCLUSIVE ? Optional.empty() : Optional.of(holds.holders(key, kind));
            }
        });
    }

    @Override
    public void close() {
        try {
            if (signals != null) {
                signals.close();
            }
        } finally {
            pool.close();
        }
    }

    /** The named parameters every statement draws from; each uses the ones its header lists. */
    private Map<String, Object> values(String key, String owner, long token, Duration lease) {
        Map<String, Object> v = new HashMap<>();
        v.put("key_hash", Keys.hash(key));
        v.put("key", key);
        v.put("owner", owner);
        v.put("token", token);
        v.put("lease_ms", lease.toMillis());
        v.put("lease_us", lease.toNanos() / 1000);
        v.put("channel", channel);
        return v;
    }

    private <T> T call(String what, String lockName, Calls.Work<T> work) {
        return calls.call(what, lockName, work);
    }

    @Override
    public String toString() {
        return "JdbcBackend[" + description + ", " + table.dialect().product() + ", table " + table.name() + "]";
    }
}
