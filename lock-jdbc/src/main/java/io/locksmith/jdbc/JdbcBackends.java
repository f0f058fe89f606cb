package io.locksmith.jdbc;

import io.locksmith.LockConfigurationException;
import io.locksmith.LockException;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.Ticker;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens a {@link JdbcBackend} (row mode) or a {@link SessionBackend} (session mode) over any
 * source of connections: finds the dialect from the database's own metadata, prepares and checks
 * the mode's tables, and starts nothing else until a waiter first needs release signals. Shared by
 * the URL provider and {@link JdbcLocks}.
 */
final class JdbcBackends {

    private JdbcBackends() {}

    /**
     * @param connector opens connections; {@link ConnectionPool} reuses them
     * @param settings the backend's options
     * @param where the redacted location for messages, e.g. {@code jdbc:postgresql://db/app}
     * @param events where PostgreSQL release signals go
     * @param ticker the client's clock
     * @throws LockException a configuration error the user must fix, or a backend failure
     */
    static LockBackend open(
            ConnectionPool.Connector connector,
            JdbcSettings settings,
            String where,
            BackendEvents events,
            Ticker ticker) {
        ConnectionPool pool = new ConnectionPool(
                connector, settings.poolSize(), settings.timeout().toMillis());
        try {
            Connection c;
            try {
                c = pool.borrow();
            } catch (SQLException e) {
                throw SqlErrors.opening("cannot connect to", where, e);
            }
            LockTable table;
            HoldTable holds;
            boolean broken = true;
            try {
                Dialect dialect = Dialect.fromProduct(c.getMetaData().getDatabaseProductName(), where);
                if (settings.mode() == JdbcSettings.Mode.SESSION) {
                    broken = false;
                    return openSession(pool, c, connector, dialect, settings, where, events, ticker);
                }
                table = new LockTable(dialect, settings.table());
                table.prepare(c, settings.createTable(), settings.timeoutSeconds(), where);
                holds = new HoldTable(dialect, settings.table());
                holds.prepare(c, settings.createTable(), settings.timeoutSeconds(), where);
                broken = false;
            } catch (SQLException e) {
                throw SqlErrors.opening("cannot prepare the lock table '" + settings.table() + "' at", where, e);
            } finally {
                pool.recycle(c, broken);
            }
            PgSignals signals = table.dialect().notifies() && settings.listen()
                    ? new PgSignals(
                            connector, settings.table(), settings.timeout().toMillis(), where, events)
                    : null;
            String name = where + " (" + table.dialect().product() + ")";
            return new JdbcBackend(pool, table, holds, signals, settings.timeoutSeconds(), name);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /** Session mode: the names table and the session pool; the row mode's tables are not used. */
    private static SessionBackend openSession(
            ConnectionPool pool,
            Connection c,
            ConnectionPool.Connector connector,
            Dialect dialect,
            JdbcSettings settings,
            String where,
            BackendEvents events,
            Ticker ticker) {
        if (dialect != Dialect.POSTGRESQL && dialect != Dialect.MARIADB && dialect != Dialect.MYSQL) {
            throw new LockConfigurationException("option 'mode' of " + where + " must be row for "
                    + dialect.product() + ", was 'session': session mode needs a server's session"
                    + " locks (PostgreSQL, MariaDB or MySQL)");
        }
        SessionSql sql = new SessionSql(dialect, settings.table());
        try {
            sql.prepare(c, settings.createTable(), settings.timeoutSeconds());
        } catch (SQLException e) {
            if (dialect == Dialect.POSTGRESQL && "42704".equals(e.getSQLState())) {
                throw new LockConfigurationException(
                        "option 'mode' of " + where + " is 'session', which needs"
                                + " PostgreSQL 14 or newer (its idle_session_timeout keeps the lease): "
                                + SqlErrors.describe(e),
                        e);
            }
            if (!settings.createTable() && !SqlErrors.breaksConnection(e)) {
                throw new LockConfigurationException(
                        "the names table '" + settings.table() + "_names' of session"
                                + " mode does not exist at " + where
                                + " or cannot be read, and create-table=false: create it"
                                + " with the DDL for " + dialect.product()
                                + " in docs/backends/jdbc.md, or drop the option ("
                                + SqlErrors.describe(e) + ")",
                        e);
            }
            throw SqlErrors.opening("cannot prepare the names table '" + settings.table() + "_names' at", where, e);
        }
        PgSignals signals = dialect.notifies() && settings.listen()
                ? new PgSignals(connector, settings.table(), settings.timeout().toMillis(), where, events)
                : null;
        SessionPool sessions = new SessionPool(connector, sql, settings.poolSize(), settings.timeoutSeconds(), ticker);
        String name = where + " (" + dialect.product() + ", session mode)";
        return new SessionBackend(pool, sql, sessions, signals, events, settings.timeoutSeconds(), name, ticker);
    }
}
