package io.locksmith.bench;

import io.locksmith.LockClient;
import io.locksmith.testing.TestServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * PostgreSQL through lock-jdbc; its floor is a hand-written lock row with the same driver on one
 * connection in autocommit: an upsert that takes the row, and a delete. Session mode is measured
 * against the advisory floor: {@code pg_try_advisory_lock} and {@code pg_advisory_unlock} on one
 * connection ({@link #advisoryFloor()}).
 */
final class PostgresBench implements BackendBench {

    /** Bind: key, owner. Updates one row if it took the key, none if another owner holds it. */
    private static final String UPSERT = "INSERT INTO bench_floor (k, v) VALUES (?, ?) "
            + "ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v WHERE bench_floor.v IS NULL";
    /** Bind: key, owner. */
    private static final String DELETE = "DELETE FROM bench_floor WHERE k = ? AND v = ?";

    private final TestServer server;
    private final Connection connection;

    PostgresBench(TestServer server) {
        this.server = server;
        try {
            this.connection = DriverManager.getConnection(server.uri());
            try (Statement s = connection.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS bench_floor (k TEXT PRIMARY KEY, v TEXT)");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach PostgreSQL at " + server.host() + ":" + server.port(), e);
        }
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String version() {
        return "PostgreSQL " + server.version();
    }

    @Override
    public LockClient client() {
        return LockClient.open(server.uri() + "&pool-size=2&table=bench_locks");
    }

    @Override
    public String uri() {
        return server.uri() + "&pool-size=2&table=bench_locks";
    }

    @Override
    public Floor floor() {
        try {
            PreparedStatement upsert = connection.prepareStatement(UPSERT);
            PreparedStatement delete = connection.prepareStatement(DELETE);
            return new Floor() {
                @Override
                public void pair(String key) {
                    try {
                        upsert.setString(1, key);
                        upsert.setString(2, "owner");
                        upsert.executeUpdate();
                        delete.setString(1, key);
                        delete.setString(2, "owner");
                        delete.executeUpdate();
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public void close() {
                    try {
                        upsert.close();
                        delete.close();
                    } catch (SQLException e) {
                        // closing a statement of a benchmark connection: nothing to do
                    }
                }
            };
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return a new lock client in session mode ({@code mode=session}), on its own connections */
    LockClient sessionClient() {
        return LockClient.open(server.uri() + "&pool-size=2&table=bench_locks&mode=session");
    }

    /**
     * @return the advisory floor: a try-lock and an unlock of one advisory key, two prepared
     *     statements on the floor's connection, the least session mode can do for a pair
     */
    Floor advisoryFloor() {
        try {
            PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(?)");
            PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)");
            return new Floor() {
                @Override
                public void pair(String key) {
                    try {
                        long id = key.hashCode();
                        lock.setLong(1, id);
                        try (java.sql.ResultSet rs = lock.executeQuery()) {
                            rs.next();
                        }
                        unlock.setLong(1, id);
                        try (java.sql.ResultSet rs = unlock.executeQuery()) {
                            rs.next();
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public void close() {
                    try {
                        lock.close();
                        unlock.close();
                    } catch (SQLException e) {
                        // closing a statement of a benchmark connection: nothing to do
                    }
                }
            };
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @return one connection of the contended advisory floor: {@code pg_try_advisory_lock} and
     *     {@code pg_advisory_unlock} of the key's hash on a connection of its own (its session is
     *     the owner)
     */
    FloorConnection advisoryFloorConnection() {
        try {
            Connection own = DriverManager.getConnection(server.uri());
            PreparedStatement lock = own.prepareStatement("SELECT pg_try_advisory_lock(?)");
            PreparedStatement unlock = own.prepareStatement("SELECT pg_advisory_unlock(?)");
            return new FloorConnection() {
                @Override
                public boolean tryAcquire(String key) {
                    return call(lock, key);
                }

                @Override
                public void release(String key) {
                    call(unlock, key);
                }

                private boolean call(PreparedStatement st, String key) {
                    try {
                        st.setLong(1, key.hashCode());
                        try (java.sql.ResultSet rs = st.executeQuery()) {
                            rs.next();
                            return rs.getBoolean(1);
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public void close() {
                    try {
                        own.close();
                    } catch (SQLException e) {
                        // closing a benchmark connection: nothing to do
                    }
                }
            };
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach PostgreSQL at " + server.host() + ":" + server.port(), e);
        }
    }

    /** The same upsert and delete as the pair floor, on a connection of its own in autocommit. */
    @Override
    public FloorConnection floorConnection() {
        String owner = UUID.randomUUID().toString();
        try {
            Connection own = DriverManager.getConnection(server.uri());
            PreparedStatement upsert = own.prepareStatement(UPSERT);
            PreparedStatement delete = own.prepareStatement(DELETE);
            upsert.setString(2, owner);
            delete.setString(2, owner);
            return new FloorConnection() {
                @Override
                public boolean tryAcquire(String key) {
                    try {
                        upsert.setString(1, key);
                        return upsert.executeUpdate() == 1;
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public void release(String key) {
                    try {
                        delete.setString(1, key);
                        delete.executeUpdate();
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public void close() {
                    try {
                        own.close();
                    } catch (SQLException e) {
                        // closing a benchmark connection: nothing to do
                    }
                }
            };
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach PostgreSQL at " + server.host() + ":" + server.port(), e);
        }
    }

    @Override
    public Runnable roundTrip() {
        return () -> {
            try (Statement s = connection.createStatement()) {
                s.execute("SELECT 1");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // the server stops with the JVM
        }
    }
}
