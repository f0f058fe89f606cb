package io.locksmith.jdbc;

import io.locksmith.LockConfigurationException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The lock table of one dialect: its statements, and the checks made when a client opens —
 * create the table if asked to, check that it has the expected columns, and check that the
 * database takes writes, so that a wrong table or a read-only replica is an error at open, not
 * at the first lock.
 */
final class LockTable {

    /** The columns every dialect's table has. */
    static final List<String> COLUMNS = List.of("lock_key", "lock_name", "owner", "token", "expires_at");

    private final Dialect dialect;
    private final String name;
    final NamedSql acquire;
    final NamedSql acquireRead;
    final NamedSql renew;
    /** One statement for a whole renewal tick, where the dialect has arrays; else null. */
    final NamedSql renewAll;

    final NamedSql release;
    /** Frees a row by its owner alone, for an attempt whose outcome is unknown. */
    final NamedSql abandon;
    /** Reads a row's holder, for operations tools; changes nothing. */
    final NamedSql inspect;

    private final NamedSql create;
    private final NamedSql columns;
    private final NamedSql probeWrite;

    LockTable(Dialect dialect, String name) {
        this.dialect = dialect;
        this.name = name;
        String f = dialect.folder();
        this.acquire = NamedSql.load(f, "acquire", name);
        this.acquireRead = dialect.readsBack() ? NamedSql.load(f, "acquire-read", name) : null;
        this.renew = NamedSql.load(f, "renew", name);
        this.renewAll = dialect == Dialect.POSTGRESQL ? NamedSql.load(f, "renew-all", name) : null;
        this.release = NamedSql.load(f, "release", name);
        this.abandon = NamedSql.load(f, "abandon", name);
        this.inspect = NamedSql.load(f, "inspect", name);
        this.create = NamedSql.load(f, "create-table", name);
        this.columns = NamedSql.load(f, "columns", name);
        this.probeWrite = NamedSql.load(f, "probe-write", name);
    }

    Dialect dialect() {
        return dialect;
    }

    String name() {
        return name;
    }

    /**
     * Prepares the table on one connection.
     *
     * @param createTable whether to create the table when it is absent
     * @param timeoutSeconds the statement timeout
     * @param where the redacted location, for messages
     * @throws SQLException as the driver reports it; the caller classifies it
     * @throws LockConfigurationException if the table is missing (and not to be created) or has
     *     the wrong shape
     */
    void prepare(Connection c, boolean createTable, int timeoutSeconds, String where) throws SQLException {
        if (dialect == Dialect.SQLITE) {
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout(timeoutSeconds);
                s.execute(NamedSql.load(dialect.folder(), "prepare", name).text());
            }
        }
        if (createTable) {
            createIfAbsent(create, c, timeoutSeconds);
        }
        Set<String> found;
        try {
            found = columnsOf(columns, c, timeoutSeconds);
        } catch (SQLException e) {
            if (!createTable && !SqlErrors.breaksConnection(e)) {
                throw new LockConfigurationException(
                        "the lock table '" + name + "' does not exist at " + where
                                + " or cannot be read, and create-table=false: create it with the DDL for "
                                + dialect.product() + " in docs/backends/jdbc.md, or drop the option ("
                                + SqlErrors.describe(e) + ")",
                        e);
            }
            throw e;
        }
        for (String column : COLUMNS) {
            if (!found.contains(column)) {
                throw new LockConfigurationException("the lock table '" + name + "' at " + where + " has no column '"
                        + column + "' (it has " + String.join(", ", found) + "); lock-jdbc needs "
                        + String.join(", ", COLUMNS)
                        + ": use another table (option table) or recreate it with the DDL in docs/backends/jdbc.md");
            }
        }
        try (PreparedStatement s = probeWrite.prepare(c, Map.of("key_hash", "-"), timeoutSeconds)) {
            s.executeUpdate();
        }
    }

    /**
     * Runs a table's {@code CREATE TABLE IF NOT EXISTS}. Two clients creating it at once: PostgreSQL
     * may fail the loser even so (a duplicate catalog entry), and the table is there all the same.
     */
    static void createIfAbsent(NamedSql create, Connection c, int timeoutSeconds) throws SQLException {
        try (PreparedStatement s = create.prepare(c, Map.of(), timeoutSeconds)) {
            s.execute();
        } catch (SQLException e) {
            if (!"23505".equals(e.getSQLState()) && !"42P07".equals(e.getSQLState())) {
                throw e;
            }
        }
    }

    /** @return the column names, lower case, of the table that {@code columns} selects from */
    static Set<String> columnsOf(NamedSql columns, Connection c, int timeoutSeconds) throws SQLException {
        Set<String> found = new TreeSet<>();
        try (PreparedStatement s = columns.prepare(c, Map.of(), timeoutSeconds);
                ResultSet rs = s.executeQuery()) {
            ResultSetMetaData meta = rs.getMetaData();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                found.add(meta.getColumnName(i).toLowerCase(Locale.ROOT));
            }
        }
        return found;
    }
}
