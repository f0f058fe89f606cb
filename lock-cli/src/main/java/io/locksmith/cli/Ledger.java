package io.locksmith.cli;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The demo's payment ledger: a SQLite file shared by the worker processes. Like a careful
 * payment service it remembers, per order, the highest fencing token it has seen and refuses a
 * charge that carries an older one; it does not refuse a second charge by itself.
 */
final class Ledger implements AutoCloseable {

    private static final String CREATE_CHARGES =
            "CREATE TABLE IF NOT EXISTS charges (order_id INTEGER NOT NULL, worker INTEGER NOT NULL, token INTEGER NOT NULL)";
    private static final String CREATE_FENCES =
            "CREATE TABLE IF NOT EXISTS fences (order_id INTEGER PRIMARY KEY, token INTEGER NOT NULL)";
    private static final String CREATE_REJECTIONS = "CREATE TABLE IF NOT EXISTS rejections "
            + "(order_id INTEGER NOT NULL, worker INTEGER NOT NULL, token INTEGER NOT NULL, newest INTEGER NOT NULL)";
    /** The start line: each worker writes its number once it is up, and starts when all have. */
    private static final String CREATE_READY = "CREATE TABLE IF NOT EXISTS ready (worker INTEGER PRIMARY KEY)";
    /** Bind: worker. */
    private static final String READY = "INSERT OR IGNORE INTO ready (worker) VALUES (?)";
    /** Bind: order_id. */
    private static final String IS_CHARGED = "SELECT 1 FROM charges WHERE order_id = ? LIMIT 1";
    /** Bind: order_id. */
    private static final String FENCE = "SELECT token FROM fences WHERE order_id = ?";
    /** Bind: order_id, token. */
    private static final String SET_FENCE =
            "INSERT INTO fences (order_id, token) VALUES (?, ?) ON CONFLICT (order_id) DO UPDATE SET token = excluded.token";
    /** Bind: order_id, worker, token. */
    private static final String CHARGE = "INSERT INTO charges (order_id, worker, token) VALUES (?, ?, ?)";
    /** Bind: order_id, worker, token, newest. */
    private static final String REJECT = "INSERT INTO rejections (order_id, worker, token, newest) VALUES (?, ?, ?, ?)";

    private final Connection connection;

    Ledger(Path file) throws SQLException {
        connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        try (Statement s = connection.createStatement()) {
            s.execute("PRAGMA busy_timeout = 30000");
            s.execute("PRAGMA journal_mode = WAL");
            s.execute(CREATE_CHARGES);
            s.execute(CREATE_FENCES);
            s.execute(CREATE_REJECTIONS);
            s.execute(CREATE_READY);
        }
    }

    /** Records that {@code worker} is up and about to start. */
    void ready(int worker) throws SQLException {
        update(READY, worker);
    }

    /** @return how many workers are up */
    int readyCount() throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM ready")) {
            r.next();
            return r.getInt(1);
        }
    }

    boolean isCharged(int order) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(IS_CHARGED)) {
            s.setInt(1, order);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    /** @return whether the charge was booked; false if its token is older than one already seen */
    boolean charge(int order, int worker, long token) throws SQLException {
        // BEGIN IMMEDIATE takes SQLite's write lock before the read, so two workers cannot both
        // read the old fence and then both write
        execute("BEGIN IMMEDIATE");
        try {
            long newest = newest(order);
            boolean fresh = token >= newest;
            if (fresh) {
                update(SET_FENCE, order, token);
                update(CHARGE, order, worker, token);
            } else {
                update(REJECT, order, worker, token, newest);
            }
            execute("COMMIT");
            return fresh;
        } catch (SQLException e) {
            execute("ROLLBACK");
            throw e;
        }
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    private long newest(int order) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(FENCE)) {
            s.setInt(1, order);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getLong(1) : Long.MIN_VALUE;
            }
        }
    }

    private void update(String sql, long... values) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                s.setLong(i + 1, values[i]);
            }
            s.executeUpdate();
        }
    }

    /** @return charges booked, distinct orders charged, and stale charges refused */
    long[] totals() throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet r =
                        s.executeQuery("SELECT (SELECT count(*) FROM charges), (SELECT count(DISTINCT order_id) FROM"
                                + " charges), (SELECT count(*) FROM rejections)")) {
            r.next();
            return new long[] {r.getLong(1), r.getLong(2), r.getLong(3)};
        }
    }

    void clear() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("DELETE FROM charges");
            s.execute("DELETE FROM fences");
            s.execute("DELETE FROM rejections");
            s.execute("DELETE FROM ready");
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
