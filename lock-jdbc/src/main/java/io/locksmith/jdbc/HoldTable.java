package io.locksmith.jdbc;

import io.locksmith.LockConfigurationException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The holds table of one dialect, beside the lock table and named after it ({@code <table>_holds}):
 * semaphores' permits and read-write locks' readers, writers and waiting writers' marks, one row
 * each, under one header row per key of a family. Its statements, and the checks made when a
 * client opens. The lock table and its statements are not touched by anything here.
 *
 * <p>A client whose lock table is given with {@code create-table=false} and has no holds table
 * still opens and keeps locks; its first semaphore or read-write attempt fails with the reason.
 */
final class HoldTable {

    /** The columns every dialect's holds table has. */
    static final List<String> COLUMNS =
            List.of("family", "hold_key", "owner", "kind", "hold_name", "permits", "token", "expires_at");

    private final Dialect dialect;
    private final String name;
    /** Creates the key's header row if absent; on PostgreSQL and SQLite it also returns it, locked. */
    final NamedSql header;
    /** Locks and reads the header row where {@link #header} cannot return it (MariaDB, MySQL, H2); else null. */
    final NamedSql headerRead;

    final NamedSql rows;
    final NamedSql purge;
    final NamedSql bump;
    final NamedSql put;
    final NamedSql release;
    final NamedSql abandon;
    final NamedSql renew;
    /** One statement for a whole renewal tick, where the dialect has arrays; else null. */
    final NamedSql renewAll;

    final NamedSql list;
    /**
     * The grant's header update and row in one statement (PostgreSQL); else null, and
     * {@link #bump} and {@link #put} run one after the other.
     */
    final NamedSql grant;
    /**
     * Starts an attempt's transaction by statement, ended by COMMIT or ROLLBACK (SQLite: with the
     * write lock taken; MariaDB, MySQL: one round trip instead of two for autocommit off and on);
     * else null, and the transaction is made with autocommit off.
     */
    final NamedSql begin;

    private final NamedSql create;
    private final NamedSql columns;
    private volatile String unavailable;

    HoldTable(Dialect dialect, String lockTable) {
        this.dialect = dialect;
        this.name = nameFor(lockTable);
        String f = dialect.folder();
        this.header = NamedSql.load(f, "holds-header", name);
        this.headerRead = dialect.readsBack() ? NamedSql.load(f, "holds-header-read", name) : null;
        this.rows = NamedSql.load(f, "holds-rows", name);
        this.purge = NamedSql.load(f, "holds-purge", name);
        this.bump = NamedSql.load(f, "holds-bump", name);
        this.put = NamedSql.load(f, "holds-put", name);
        this.release = NamedSql.load(f, "holds-release", name);
        this.abandon = NamedSql.load(f, "holds-abandon", name);
        this.renew = NamedSql.load(f, "holds-renew", name);
        this.renewAll = dialect == Dialect.POSTGRESQL ? NamedSql.load(f, "holds-renew-all", name) : null;
        this.list = NamedSql.load(f, "holds-list", name);
        this.grant = dialect == Dialect.POSTGRESQL ? NamedSql.load(f, "holds-grant", name) : null;
        this.begin = dialect == Dialect.SQLITE || dialect == Dialect.MARIADB || dialect == Dialect.MYSQL
                ? NamedSql.load(f, "holds-begin", name)
                : null;
        this.create = NamedSql.load(f, "holds-create-table", name);
        this.columns = NamedSql.load(f, "holds-columns", name);
    }

    /** @return the holds table that goes with a lock table */
    static String nameFor(String lockTable) {
        return lockTable + "_holds";
    }

    Dialect dialect() {
        return dialect;
    }

    String name() {
        return name;
    }

    /** @return why semaphores and read-write locks cannot be kept here, if they cannot */
    Optional<String> unavailable() {
        return Optional.ofNullable(unavailable);
    }

    /**
     * Prepares the table on one connection, after the lock table.
     *
     * @param createTable whether to create the table when it is absent
     * @throws SQLException as the driver reports it; the caller classifies it
     * @throws LockConfigurationException if the table exists with the wrong shape
     */
    void prepare(Connection c, boolean createTable, int timeoutSeconds, String where) throws SQLException {
        if (createTable) {
            try (PreparedStatement s = create.prepare(c, Map.of(), timeoutSeconds)) {
                s.execute();
            } catch (SQLException e) {
                // two clients creating the table at once, as for the lock table
                if (!"23505".equals(e.getSQLState()) && !"42P07".equals(e.getSQLState())) {
                    throw e;
                }
            }
        }
        Set<String> found = new TreeSet<>();
        try (PreparedStatement s = columns.prepare(c, Map.of(), timeoutSeconds);
                ResultSet rs = s.executeQuery()) {
            ResultSetMetaData meta = rs.getMetaData();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                found.add(meta.getColumnName(i).toLowerCase(Locale.ROOT));
            }
        } catch (SQLException e) {
            // SQLite reports a missing table without an SQLState, as SQLITE_ERROR (1)
            boolean missing = !SqlErrors.breaksConnection(e) || (dialect == Dialect.SQLITE && e.getErrorCode() == 1);
            if (createTable || !missing) {
                throw e;
            }
            unavailable = "the holds table '" + name + "' for semaphores and read-write locks does not exist at "
                    + where + " or cannot be read, and create-table=false: create it with the DDL for "
                    + dialect.product() + " in docs/backends/jdbc.md (" + SqlErrors.describe(e) + ")";
            return;
        }
        for (String column : COLUMNS) {
            if (!found.contains(column)) {
                throw new LockConfigurationException("the holds table '" + name + "' at " + where
                        + " has no column '" + column + "' (it has " + String.join(", ", found)
                        + "); lock-jdbc needs " + String.join(", ", COLUMNS)
                        + ": recreate it with the DDL in docs/backends/jdbc.md");
            }
        }
    }
}
