package io.locksmith.jdbc;

import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockException;
import io.locksmith.spi.Redaction;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.Locale;

/**
 * What a driver's {@link SQLException} means for Locksmith: a connection to drop or keep, a
 * configuration the user must fix, or a failure the core retries. Messages are redacted: drivers
 * sometimes echo the URL they were given.
 */
final class SqlErrors {

    private SqlErrors() {}

    /**
     * A failure to keep the connection after: anything but a plain statement error (a constraint,
     * bad data, a rolled-back transaction), because after a timeout or an I/O error the connection
     * may be half-way through a conversation with the server.
     */
    static boolean breaksConnection(SQLException e) {
        if (e instanceof SQLTimeoutException) {
            return true;
        }
        String state = e.getSQLState();
        return state == null
                || !(state.startsWith("23")
                        || state.startsWith("22")
                        || state.startsWith("40")
                        || state.startsWith("42")
                        || state.startsWith("25"));
    }

    /**
     * An attempt's transaction chosen as a deadlock victim or failed serialisation (PostgreSQL
     * 40P01/40001, MariaDB and MySQL 1213): nothing of it was kept, and it may run again at once.
     */
    static boolean lostRace(SQLException e) {
        return "40001".equals(e.getSQLState()) || "40P01".equals(e.getSQLState()) || e.getErrorCode() == 1213;
    }

    /** Two sessions inserted the same new key at once (H2's MERGE); the loser tries again. */
    static boolean duplicateKey(SQLException e) {
        return "23505".equals(e.getSQLState()) || e.getErrorCode() == 1062;
    }

    /**
     * @return the driver's message with its SQLState and the underlying reason the driver wraps
     *     (an {@code UnknownHostException}, a refused connection), redacted: pgjdbc says only "The
     *     connection attempt failed." and keeps the reason in the cause
     */
    static String describe(SQLException e) {
        String message = String.valueOf(e.getMessage()).strip();
        if (e.getSQLState() != null) {
            message += " [SQLState " + e.getSQLState() + "]";
        }
        Throwable reason = null;
        for (Throwable t = e.getCause(); t != null && t != e; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                reason = t;
            }
        }
        return Redaction.redact(reason == null ? message : message + " (" + reason + ")");
    }

    /** @return the exception for a failed call on a lock */
    static LockBackendException failure(String what, String lockName, String where, SQLException e) {
        String kind = e instanceof SQLTimeoutException ? " timed out on " : " failed on ";
        return new LockBackendException(what + " of lock '" + lockName + "'" + kind + where + ": " + describe(e), e);
    }

    /**
     * @param what what was being done when opening, e.g. "cannot connect to"
     * @return a configuration error for what the user must fix (credentials, a read-only
     *     database, privileges), else a backend failure
     */
    static LockException opening(String what, String where, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String text = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (state.startsWith("28")
                || e.getErrorCode() == 1045
                || text.contains("password authentication failed")
                || text.contains("access denied")) {
            return new LockConfigurationException(
                    "authentication to " + where + " failed (check the user and password" + " options): " + describe(e),
                    e);
        }
        if (state.equals("25006")
                || e.getErrorCode() == 90097
                || e.getErrorCode() == 1290
                || e.getErrorCode() == 1836
                || text.contains("read-only")
                || text.contains("read only")
                || text.contains("readonly")) {
            return new LockConfigurationException(
                    "the database at " + where + " is read-only: locks need to write to"
                            + " their table (point the URL at a writable primary): " + describe(e),
                    e);
        }
        if (state.equals("42501") || e.getErrorCode() == 1142 || text.contains("permission denied")) {
            return new LockConfigurationException(
                    "the database user at " + where + " may not use the lock table"
                            + " (grant it SELECT, INSERT, UPDATE, and CREATE unless create-table=false): "
                            + describe(e),
                    e);
        }
        return new LockBackendException(what + " " + where + ": " + describe(e), e);
    }
}
