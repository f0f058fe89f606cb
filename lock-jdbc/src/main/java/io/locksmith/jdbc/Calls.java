package io.locksmith.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Runs a backend call on a pooled connection. When it fails in a way that breaks the connection,
 * it runs once more on another: after a database restart every idle connection fails once, and
 * every call here may safely run twice (an attempt by the same owner takes its own row again,
 * renewing and releasing are idempotent).
 */
final class Calls {

    /** One call's work on a connection. */
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final ConnectionPool pool;
    private final String description;

    Calls(ConnectionPool pool, String description) {
        this.pool = pool;
        this.description = description;
    }

    /**
     * @param what the operation, for the message of a failure
     * @param lockName the lock's name, for the message
     * @throws io.locksmith.LockBackendException if the work fails (twice, where it broke the connection)
     */
    <T> T call(String what, String lockName, Work<T> work) {
        try {
            return once(work);
        } catch (SQLException first) {
            if (!SqlErrors.breaksConnection(first) || first instanceof java.sql.SQLTimeoutException) {
                throw SqlErrors.failure(what, lockName, description, first);
            }
            try {
                return once(work);
            } catch (SQLException second) {
                second.addSuppressed(first);
                throw SqlErrors.failure(what, lockName, description, second);
            }
        }
    }

    private <T> T once(Work<T> work) throws SQLException {
        Connection c = pool.borrow();
        boolean broken = true;
        try {
            T result = work.run(c);
            broken = false;
            return result;
        } catch (SQLException e) {
            broken = SqlErrors.breaksConnection(e);
            throw e;
        } finally {
            pool.recycle(c, broken);
        }
    }
}
