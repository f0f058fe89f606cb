package io.locksmith.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What an operator can do to session mode's locks from another connection: find the session that
 * holds a key's lock and end it (PostgreSQL {@code pg_terminate_backend}, MariaDB {@code KILL}).
 */
final class SessionFaults {

    private SessionFaults() {}

    /** @return the server ids of the sessions that hold the key's lock in the default table (none, or one) */
    static List<Long> holders(Database database, String key) {
        return sessions(database, key, true);
    }

    /**
     * @return the server ids of the sessions waiting in the server's queue for the key's lock in
     *     the default table
     */
    static List<Long> waiters(Database database, String key) {
        return sessions(database, key, false);
    }

    private static List<Long> sessions(Database database, String key, boolean granted) {
        SessionSql sql = new SessionSql(
                database == Database.POSTGRES ? Dialect.POSTGRESQL : Dialect.MARIADB, JdbcSettings.DEFAULT_TABLE);
        List<Long> found = new ArrayList<>();
        try (Connection c = database.admin()) {
            Long id = null;
            try (PreparedStatement s =
                    c.prepareStatement("SELECT id FROM " + JdbcSettings.DEFAULT_TABLE + "_names WHERE lock_key = ?")) {
                s.setString(1, Keys.hash(key));
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        id = rs.getLong(1);
                    }
                }
            }
            if (id == null) {
                return found;
            }
            String query = database == Database.POSTGRES
                    ? "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted = " + granted
                            + " AND objsubid = 2"
                            + " AND classid::text::bigint = ? AND objid::text::bigint = ?"
                    : granted
                            ? "SELECT IS_USED_LOCK(?)"
                            : "SELECT ID FROM information_schema.PROCESSLIST WHERE STATE = 'User lock'"
                                    + " AND INFO LIKE ?";
            try (PreparedStatement s = c.prepareStatement(query)) {
                if (database == Database.POSTGRES) {
                    s.setLong(1, Integer.toUnsignedLong(sql.space()));
                    s.setLong(2, id);
                } else if (granted) {
                    s.setString(1, sql.lockName(id));
                } else {
                    s.setString(1, "%GET_LOCK('" + sql.lockName(id) + "'%"); // a waiting GET_LOCK of that name
                }
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        long session = rs.getLong(1);
                        if (!rs.wasNull()) {
                            found.add(session);
                        }
                    }
                }
            }
            return found;
        } catch (SQLException e) {
            throw new IllegalStateException(
                    database + ": cannot find the " + (granted ? "holder" : "waiters") + " of '" + key + "': " + e, e);
        }
    }

    /** @return the text of the last statement the PostgreSQL session ran, as {@code pg_stat_activity} shows it */
    static String lastStatement(long session) {
        try (Connection c = Database.POSTGRES.admin();
                PreparedStatement s = c.prepareStatement("SELECT query FROM pg_stat_activity WHERE pid = ?")) {
            s.setLong(1, session);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("PostgreSQL: no session " + session + " in pg_stat_activity");
                }
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "PostgreSQL: cannot read session " + session + "'s last statement: " + e, e);
        }
    }

    /** Ends the session that holds the key's lock, as an operator would; the lock goes with it. */
    static void endHolder(Database database, String key) {
        for (long session : holders(database, key)) {
            String end = database == Database.POSTGRES
                    ? "SELECT pg_terminate_backend(" + session + ")"
                    : "KILL CONNECTION " + session;
            try (Connection c = database.admin();
                    java.sql.Statement s = c.createStatement()) {
                s.execute(end);
            } catch (SQLException e) {
                throw new IllegalStateException(database + ": " + end + ": " + e, e);
            }
        }
    }
}
