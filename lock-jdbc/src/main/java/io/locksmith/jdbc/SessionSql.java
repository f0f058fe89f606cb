package io.locksmith.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Session mode's statements for one dialect, and how a key's id becomes a server lock: on
 * PostgreSQL the two-integer advisory lock (the table's key space, the id), on MariaDB and MySQL
 * the {@code GET_LOCK} name {@code locksmith:SPACE:ID}. The space is drawn from the table's name,
 * so that two lock tables in one database never share a lock, and the two-integer form keeps
 * clear of applications that use single {@code bigint} advisory keys.
 */
final class SessionSql {

    private final Dialect dialect;
    private final String table;
    private final int space;
    private final String channel;
    private final NamedSql createNames;
    private final NamedSql createTokens;
    private final NamedSql check;
    final NamedSql nameId;
    final NamedSql nameInsert;
    private final NamedSql acquire;
    private final NamedSql idleLimit;
    private final NamedSql token;
    private final NamedSql tokenRead;
    private final NamedSql renew;
    private final NamedSql release;
    private final NamedSql restore;
    private final NamedSql wait;
    private final NamedSql waitChecks;
    private final NamedSql waitChecksRestore;

    SessionSql(Dialect dialect, String table) {
        this.dialect = dialect;
        this.table = table;
        this.space = (int) Long.parseLong(Keys.hash(table).substring(0, 8), 16);
        this.channel = Keys.channel(table);
        String f = dialect.folder();
        boolean pg = dialect == Dialect.POSTGRESQL;
        this.createNames = NamedSql.load(f, "session-names-create", table);
        this.createTokens = pg ? NamedSql.load(f, "session-tokens-create", table) : null;
        this.check = NamedSql.load(f, "session-check", table);
        this.nameId = NamedSql.load(f, "session-name-id", table);
        this.nameInsert = NamedSql.load(f, "session-name-insert", table);
        this.acquire = NamedSql.load(f, "session-acquire", table);
        this.idleLimit = pg ? null : NamedSql.load(f, "session-idle-limit", table);
        this.token = pg ? null : NamedSql.load(f, "session-token", table);
        this.tokenRead = pg ? null : NamedSql.load(f, "session-token-read", table);
        this.renew = pg ? NamedSql.load(f, "session-renew", table) : idleLimit;
        this.release = NamedSql.load(f, "session-release", table);
        this.restore = NamedSql.load(f, "session-restore", table);
        this.wait = NamedSql.load(f, "session-wait", table);
        this.waitChecks = pg ? NamedSql.load(f, "session-wait-checks", table) : null;
        this.waitChecksRestore = pg ? NamedSql.load(f, "session-wait-checks-restore", table) : null;
    }

    Dialect dialect() {
        return dialect;
    }

    String table() {
        return table;
    }

    /** @return the lock table's advisory key space: the first key of its PostgreSQL advisory locks */
    int space() {
        return space;
    }

    /**
     * Creates the names table (and PostgreSQL's token sequence) if asked to, and checks that the
     * server keeps session locks and idle limits.
     */
    void prepare(Connection c, boolean create, int timeoutSeconds) throws SQLException {
        if (create) {
            LockTable.createIfAbsent(createNames, c, timeoutSeconds);
            if (createTokens != null) {
                LockTable.createIfAbsent(createTokens, c, timeoutSeconds);
            }
        }
        try (PreparedStatement s = check.prepare(c, Map.of(), timeoutSeconds)) {
            s.execute();
        }
        try (PreparedStatement s = nameId.prepare(c, Map.of("key_hash", "-"), timeoutSeconds)) {
            s.executeQuery().close();
        }
    }

    /**
     * The server's idle limit for a lease: whole milliseconds on PostgreSQL, whole seconds on
     * MariaDB and MySQL, rounded up, so that the server never ends a session before its lease.
     */
    long idleLimit(Duration lease) {
        return dialect == Dialect.POSTGRESQL
                ? Math.max(1, (lease.toNanos() + 999_999) / 1_000_000)
                : Math.max(1, (lease.toNanos() + 999_999_999) / 1_000_000_000);
    }

    /** @return an idle limit as {@link #idleLimit} gives it, in nanoseconds */
    long idleLimitNanos(long limit) {
        return dialect == Dialect.POSTGRESQL ? limit * 1_000_000 : limit * 1_000_000_000;
    }

    /**
     * Tries the key's lock on the session, once, without waiting.
     *
     * @return the new fencing token, or {@code null} if another session holds the lock
     */
    Long tryLock(Session s, long id, Duration lease, int timeoutSeconds) throws SQLException {
        long limit = idleLimit(lease);
        Map<String, Object> v = values(id, null);
        if (dialect == Dialect.POSTGRESQL) {
            v.put("idle_ms", Long.toString(limit));
            PreparedStatement st = s.statement(acquire, timeoutSeconds);
            acquire.bind(st, v);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                long token = rs.getLong(1);
                if (rs.wasNull()) {
                    return null;
                }
                s.idleLimitSet(limit);
                return token;
            }
        }
        keepIdleLimit(s, limit, timeoutSeconds);
        PreparedStatement attempt = s.statement(acquire, timeoutSeconds);
        acquire.bind(attempt, v);
        try (ResultSet rs = attempt.executeQuery()) {
            rs.next();
            if (rs.getInt(1) != 1) {
                return null;
            }
        }
        return nextToken(s, v, id, timeoutSeconds);
    }

    /** MariaDB and MySQL: takes the key's next fencing token, while the session holds its lock. */
    private long nextToken(Session s, Map<String, Object> v, long id, int timeoutSeconds) throws SQLException {
        PreparedStatement next = s.statement(token, timeoutSeconds);
        token.bind(next, v);
        if (next.executeUpdate() != 1) {
            throw new SQLException("the names table has no row for lock id " + id, "HY000");
        }
        try (ResultSet rs = s.statement(tokenRead, timeoutSeconds).executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Waits in the server's lock queue for the key's lock on the session, for at most
     * {@code waitMillis} (on MariaDB and MySQL rounded up to whole seconds); on PostgreSQL the
     * first wait on a session also makes the server check its client's connection while it waits.
     * The statement runs without a query timeout and with the connection's network timeout raised
     * past the wait.
     *
     * @param started told the statement just before it is sent, so that it can be cancelled
     * @return the new fencing token, or {@code null} if the wait ran out
     */
    Long waitLock(
            Session s,
            long id,
            Duration lease,
            long waitMillis,
            int timeoutSeconds,
            java.util.function.Consumer<PreparedStatement> started)
            throws SQLException {
        boolean pg = dialect == Dialect.POSTGRESQL;
        if (pg && !s.checksClient()) {
            try (PreparedStatement st = waitChecks.prepare(s.connection(), Map.of(), timeoutSeconds)) {
                st.execute();
            }
            s.clientChecked();
        }
        long limit = idleLimit(lease);
        if (!pg) {
            keepIdleLimit(s, limit, timeoutSeconds);
        }
        long waitSeconds = Math.max(1, (waitMillis + 999) / 1000);
        Map<String, Object> v = values(id, null);
        if (pg) {
            v.put("idle_ms", Long.toString(limit));
            v.put("wait_ms", Long.toString(waitMillis));
        } else {
            v.put("wait_s", waitSeconds);
        }
        PreparedStatement st = s.statement(wait, 0);
        wait.bind(st, v);
        Connection c = s.connection();
        int network = c.getNetworkTimeout();
        c.setNetworkTimeout(
                Runnable::run, (int) Math.min(Integer.MAX_VALUE, waitSeconds * 1000 + timeoutSeconds * 1000L + 2000));
        try {
            started.accept(st);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                if (pg) {
                    s.idleLimitSet(limit);
                    return rs.getLong(1);
                }
                int got = rs.getInt(1);
                if (rs.wasNull()) {
                    throw new SQLException("GET_LOCK was cut short (the statement was killed)", "70100");
                }
                if (got != 1) {
                    return null;
                }
            } catch (SQLException e) {
                if (pg && "55P03".equals(e.getSQLState())) {
                    return null;
                }
                throw e;
            }
        } finally {
            c.setNetworkTimeout(Runnable::run, network);
        }
        return nextToken(s, v, id, timeoutSeconds); // MariaDB and MySQL: granted, and held by this session
    }

    /** One round trip on a holding session, which restarts its idle timer, at the given idle limit. */
    void renew(Session s, long limit, int timeoutSeconds) throws SQLException {
        if (dialect == Dialect.POSTGRESQL) {
            PreparedStatement st = s.statement(renew, timeoutSeconds);
            renew.bind(st, Map.of("idle_ms", Long.toString(limit)));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
            }
        } else {
            setIdleLimit(s, limit, timeoutSeconds);
        }
        s.idleLimitSet(limit);
    }

    /** @return whether the session held the key's lock and now does not */
    boolean unlock(Session s, long id, String keyHash, int timeoutSeconds) throws SQLException {
        PreparedStatement st = s.statement(release, timeoutSeconds);
        release.bind(st, values(id, keyHash));
        try (ResultSet rs = st.executeQuery()) {
            if (!rs.next()) {
                return false;
            }
            return dialect == Dialect.POSTGRESQL ? rs.getBoolean(1) : rs.getInt(1) == 1;
        }
    }

    /** Gives the session back the server's own idle limit. */
    void restore(Session s, int timeoutSeconds) throws SQLException {
        try (PreparedStatement st = restore.prepare(s.connection(), Map.of(), timeoutSeconds)) {
            st.execute();
        }
        if (s.checksClient()) {
            try (PreparedStatement st = waitChecksRestore.prepare(s.connection(), Map.of(), timeoutSeconds)) {
                st.execute();
            }
        }
    }

    /** MariaDB and MySQL: sets the session's idle limit unless it is the one set already. */
    private void keepIdleLimit(Session s, long limit, int timeoutSeconds) throws SQLException {
        if (s.idleLimit() != limit) {
            setIdleLimit(s, limit, timeoutSeconds);
            s.idleLimitSet(limit);
        }
    }

    private void setIdleLimit(Session s, long seconds, int timeoutSeconds) throws SQLException {
        PreparedStatement st = s.statement(idleLimit, timeoutSeconds);
        idleLimit.bind(st, Map.of("idle_s", seconds));
        st.execute();
    }

    /** @return the {@code GET_LOCK} name of a key's id: 30 characters at most, under the 64 allowed */
    String lockName(long id) {
        return "locksmith:" + Integer.toHexString(space) + ":" + id;
    }

    private Map<String, Object> values(long id, String keyHash) {
        Map<String, Object> v = new HashMap<>();
        if (dialect == Dialect.POSTGRESQL) {
            v.put("space", space);
            v.put("lock_id", (int) id);
            v.put("channel", channel);
            v.put("key_hash", keyHash);
        } else {
            v.put("lock_name", lockName(id));
            v.put("lock_id", id);
        }
        return v;
    }
}
