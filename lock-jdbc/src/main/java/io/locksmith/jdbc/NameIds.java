package io.locksmith.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every lock key's id in session mode's names table, given once per key by the database (an
 * insert if absent) and never changed, so each client reads it once and keeps it. Distinct keys
 * get distinct ids, hence distinct server locks: no hash of the name decides which lock it is.
 */
final class NameIds {

    private final SessionSql sql;
    private final Calls calls;
    private final int timeoutSeconds;
    private final Map<String, Long> ids = new ConcurrentHashMap<>();

    NameIds(SessionSql sql, Calls calls, int timeoutSeconds) {
        this.sql = sql;
        this.calls = calls;
        this.timeoutSeconds = timeoutSeconds;
    }

    /**
     * @param key the backend key
     * @param lockName the lock's name, for a failure's message
     * @return the key's id, from this client's memory or the names table
     * @throws io.locksmith.LockBackendException if the table cannot be read or written
     */
    long id(String key, String lockName) {
        Long known = ids.get(key);
        if (known != null) {
            return known;
        }
        long id = calls.call("acquire", lockName, c -> lookUp(c, key));
        ids.putIfAbsent(key, id);
        return id;
    }

    /** Reads the key's id, and gives it one if it has none (safe to run twice: the insert is if absent). */
    private long lookUp(Connection c, String key) throws SQLException {
        Map<String, Object> v = Map.of("key_hash", Keys.hash(key), "key", key);
        Long id = read(c, v);
        if (id != null) {
            return id;
        }
        if (sql.dialect() == Dialect.POSTGRESQL) {
            try (PreparedStatement s = sql.nameInsert.prepare(c, v, timeoutSeconds);
                    ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
        try (PreparedStatement s = sql.nameInsert.prepare(c, v, timeoutSeconds)) {
            s.executeUpdate();
        }
        id = read(c, v);
        if (id == null) {
            throw new SQLException("the names table " + sql.table() + "_names lost the row just written", "HY000");
        }
        return id;
    }

    private Long read(Connection c, Map<String, Object> v) throws SQLException {
        try (PreparedStatement s = sql.nameId.prepare(c, v, timeoutSeconds);
                ResultSet rs = s.executeQuery()) {
            return rs.next() ? rs.getLong(1) : null;
        }
    }
}
