package io.locksmith.jdbc;

import io.locksmith.LockConfigurationException;
import io.locksmith.PermitMismatchException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.RenewOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * is one short transaction ({@link HoldAttempt}), run again at once if it lost a deadlock race;
 * renewal, release and abandon are one autocommit statement each (renewal one per tick), as for
 * locks.
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
    private final HoldAttempt attempt;

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
        this.attempt = new HoldAttempt(table, timeoutSeconds, hintsHeard);
    }

    AcquireResult tryAcquire(AcquireRequest request) {
        table.unavailable().ifPresent(reason -> {
            throw new LockConfigurationException(reason);
        });
        Map<String, Object> values = values(request.key(), request.owner(), request.hold(), 0, request.lease());
        HoldAttempt.Outcome outcome = calls.call("acquire", request.name(), c -> {
            for (int round = 1; ; round++) {
                try {
                    return attempt.run(c, request, values);
                } catch (SQLException e) {
                    if (round >= RACE_RETRIES || !SqlErrors.lostRace(e)) {
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
    Map<String, Object> values(String key, String owner, Hold hold, long token, Duration lease) {
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

    static String kindCode(Hold.Kind kind) {
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
