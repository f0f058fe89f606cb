package io.locksmith.jdbc;

import io.locksmith.LockException;
import io.locksmith.spi.BackendEvents;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens a {@link JdbcBackend} over any source of connections: finds the dialect from the
 * database's own metadata, prepares and checks the lock table, and starts nothing else until a
 * waiter first needs release signals. Shared by the URL provider and {@link JdbcLocks}.
 */
final class JdbcBackends {

    private JdbcBackends() {}

    /**
     * @param connector opens connections; {@link ConnectionPool} reuses them
     * @param settings the backend's options
     * @param where the redacted location for messages, e.g. {@code jdbc:postgresql://db/app}
     * @param events where PostgreSQL release signals go
     * @throws LockException a configuration error the user must fix, or a backend failure
     */
    static JdbcBackend open(
            ConnectionPool.Connector connector, JdbcSettings settings, String where, BackendEvents events) {
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
}
