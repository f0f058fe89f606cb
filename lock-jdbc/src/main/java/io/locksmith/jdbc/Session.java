package io.locksmith.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One database session of session mode and the grants whose locks it holds, each of another key:
 * a server's session locks are re-entrant, so a session that holds a key's lock is never given an
 * attempt at that key ({@link SessionPool}). Statements on the connection run under the session's
 * monitor, so that an attempt, a renewal and a release never overlap on it; {@link #abandon()}
 * and the pool's reads of the holdings are the exceptions, made without it.
 */
final class Session {

    /** A grant whose lock this session holds, with the idle limit its lease asks for. */
    record Holding(String key, String owner, long idleLimit) {}

    private final Connection connection;
    private final Map<Long, Holding> holdings = new ConcurrentHashMap<>();
    /** Statements kept on the connection; used under the session's monitor. */
    private final Map<NamedSql, PreparedStatement> statements = new java.util.IdentityHashMap<>();

    private final AtomicBoolean abandoned = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile long idleLimit;
    private volatile long idleSinceNanos;
    private volatile boolean checksClient;
    /** Whether an attempt has the session; guarded by the pool. */
    volatile boolean attempting;

    Session(Connection connection) {
        this.connection = connection;
    }

    Connection connection() {
        return connection;
    }

    /**
     * @return the statement prepared once on this session's connection and kept: a lock pair is
     *     two statements, and preparing them afresh would cost as much again on the client
     */
    PreparedStatement statement(NamedSql sql, int timeoutSeconds) throws SQLException {
        PreparedStatement st = statements.get(sql);
        if (st == null) {
            st = connection.prepareStatement(sql.text());
            st.setQueryTimeout(timeoutSeconds);
            statements.put(sql, st);
        }
        return st;
    }

    /** @return the idle limit last set on the server (ms on PostgreSQL, s on MariaDB), 0 if none */
    long idleLimit() {
        return idleLimit;
    }

    void idleLimitSet(long limit) {
        idleLimit = limit;
    }

    long idleSinceNanos() {
        return idleSinceNanos;
    }

    void idleSince(long nanos) {
        idleSinceNanos = nanos;
    }

    /** @return whether the server checks this session's client connection while it waits (set by its first wait) */
    boolean checksClient() {
        return checksClient;
    }

    void clientChecked() {
        checksClient = true;
    }

    /** @return how many grants' locks the session holds */
    int count() {
        return holdings.size();
    }

    /** @return whether the session holds a lock of the key with this id, for anyone */
    boolean holdsId(long id) {
        return holdings.containsKey(id);
    }

    /** @return whether the session holds the key's lock for this owner */
    boolean holds(long id, String owner) {
        Holding h = holdings.get(id);
        return h != null && h.owner().equals(owner);
    }

    void hold(long id, Holding holding) {
        holdings.put(id, holding);
    }

    void holdAgain(long id, long idleLimit) {
        holdings.computeIfPresent(id, (k, h) -> new Holding(h.key(), h.owner(), idleLimit));
    }

    void drop(long id) {
        holdings.remove(id);
    }

    /** @return the largest idle limit its grants ask for */
    long largestIdleLimit() {
        return holdings.values().stream().mapToLong(Holding::idleLimit).max().orElse(0);
    }

    /** Empties the holdings of a session that ended; @return what it held */
    List<Holding> endHoldings() {
        List<Holding> held = List.copyOf(holdings.values());
        holdings.clear();
        return held;
    }

    /** Marks that an attempt was given up while it ran; @return whether this call marked it */
    boolean abandon() {
        return abandoned.compareAndSet(false, true);
    }

    boolean abandoned() {
        return abandoned.get();
    }

    /** Marks the session ended; @return whether this call ended it */
    boolean end() {
        return ended.compareAndSet(false, true);
    }

    boolean ended() {
        return ended.get();
    }
}
