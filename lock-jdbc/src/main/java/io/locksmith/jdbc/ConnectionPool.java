package io.locksmith.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The few connections one lock client uses: at most {@code size} open at once, reused while they
 * work and dropped after a failure that may have broken them. With size 0 every call opens a
 * connection and closes it, which is right over a DataSource that pools on its own.
 *
 * <p>Every connection is in autocommit mode and carries no session state, so any connection of
 * any pool (pgbouncer's transaction pooling included) serves every statement.
 */
final class ConnectionPool implements AutoCloseable {

    /** Opens a physical connection (or borrows one from an application's pool). */
    interface Connector {
        Connection open() throws SQLException;
    }

    private final Connector connector;
    private final int size;
    private final long waitMillis;
    private final Semaphore permits;
    private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
    private volatile boolean closed;

    ConnectionPool(Connector connector, int size, long waitMillis) {
        this.connector = connector;
        this.size = size;
        this.waitMillis = waitMillis;
        this.permits = new Semaphore(Math.max(size, 1), true);
    }

    /**
     * @return a connection in autocommit mode; hand it back with {@link #recycle}
     * @throws SQLException if none can be opened, or all are busy for longer than the timeout
     */
    Connection borrow() throws SQLException {
        if (closed) {
            throw new SQLException("the lock client is closed", "08003");
        }
        if (size == 0) {
            return autocommit(connector.open());
        }
        try {
            if (!permits.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
                throw new SQLException(
                        "all " + size + " connections of the lock client stayed busy for " + waitMillis
                                + " ms (option pool-size)",
                        "08001");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for a connection", "08001", e);
        }
        try {
            Connection c = idle.pollFirst();
            return c != null ? c : autocommit(connector.open());
        } catch (SQLException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /**
     * Takes a connection back.
     *
     * @param broken whether the last call on it failed in a way that may have broken it
     */
    void recycle(Connection connection, boolean broken) {
        if (size == 0 || broken || closed) {
            closeQuietly(connection);
        } else {
            idle.addFirst(connection);
        }
        if (size > 0) {
            permits.release();
        }
        if (closed) {
            drain();
        }
    }

    @Override
    public void close() {
        closed = true;
        drain();
    }

    private void drain() {
        Connection c;
        while ((c = idle.pollFirst()) != null) {
            closeQuietly(c);
        }
    }

    private static Connection autocommit(Connection c) throws SQLException {
        try {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            return c;
        } catch (SQLException e) {
            closeQuietly(c);
            throw e;
        }
    }

    static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            // the connection is being dropped; there is nothing to recover
        }
    }
}
