package io.locksmith.jdbc;

import io.locksmith.spi.Ticker;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The sessions of session mode. An attempt at a key takes a session no other attempt has, that
 * does not hold the key's lock already (a server's session locks are re-entrant: it would be
 * granted again), that holds fewer than {@link #PER_SESSION} locks, all with the attempt's idle
 * limit (a session ends after its idle limit, taking every lock it holds); else it opens one. Up
 * to {@code keep} sessions that hold nothing stay open for later attempts; one the server may have
 * ended for idleness (idle past half its limit) is closed instead of used.
 *
 * <p>A session whose state is in doubt is discarded: aborting its connection ends the server's
 * session and every lock it held. Unlike {@link ConnectionPool} it has no bound on the sessions
 * open: held locks need them.
 */
final class SessionPool implements AutoCloseable {

    /** The most locks one session holds; more open another session. */
    static final int PER_SESSION = 64;

    private final ConnectionPool.Connector connector;
    private final SessionSql sql;
    private final int keep;
    private final int timeoutSeconds;
    private final Ticker ticker;
    private final List<Session> sessions = new ArrayList<>(); // guarded by this
    private boolean closed; // guarded by this

    SessionPool(ConnectionPool.Connector connector, SessionSql sql, int keep, int timeoutSeconds, Ticker ticker) {
        this.connector = connector;
        this.sql = sql;
        this.keep = keep;
        this.timeoutSeconds = timeoutSeconds;
        this.ticker = ticker;
    }

    /**
     * @param id the key's id
     * @param idleLimit the idle limit the attempt's lease asks for
     * @return a session for one attempt at the key, to hand back with {@link #done}
     */
    Session take(long id, long idleLimit) throws SQLException {
        return take(id, idleLimit, false);
    }

    /**
     * @return a session that holds nothing, for a wait in the server's lock queue: a blocked
     *     statement would hold up the renewals and releases of any lock the session held
     */
    Session takeEmpty() throws SQLException {
        return take(-1, 0, true);
    }

    private Session take(long id, long idleLimit, boolean empty) throws SQLException {
        List<Session> stale = new ArrayList<>();
        try {
            synchronized (this) {
                if (closed) {
                    throw new SQLException("the lock client is closed", "08003");
                }
                long now = ticker.nanoTime();
                for (Session s : sessions) {
                    if (s.attempting || s.ended() || s.holdsId(id) || s.count() >= (empty ? 1 : PER_SESSION)) {
                        continue;
                    }
                    if (s.count() == 0) {
                        long limit = sql.idleLimitNanos(s.idleLimit());
                        if (limit > 0 && now - s.idleSinceNanos() >= limit / 2) {
                            stale.add(s); // the server may have ended it already, or is about to
                            continue;
                        }
                    } else if (s.idleLimit() != idleLimit) {
                        continue;
                    }
                    s.attempting = true;
                    return s;
                }
            }
        } finally {
            stale.forEach(this::discard);
        }
        Connection c = connector.open();
        try {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            ConnectionPool.closeQuietly(c);
            throw e;
        }
        Session s = new Session(c);
        s.attempting = true;
        synchronized (this) {
            if (!closed) {
                sessions.add(s);
                return s;
            }
        }
        discard(s);
        throw new SQLException("the lock client is closed", "08003");
    }

    /** Hands back a session after an attempt. */
    void done(Session s) {
        synchronized (this) {
            s.attempting = false;
        }
        emptied(s);
    }

    /** Keeps a session that may hold nothing now for later, or closes it if enough are kept. */
    void emptied(Session s) {
        Session retired = null;
        synchronized (this) {
            if (s.count() > 0 || s.attempting || s.ended() || !sessions.contains(s)) {
                return;
            }
            s.idleSince(ticker.nanoTime());
            long empty = sessions.stream()
                    .filter(o -> o.count() == 0 && !o.attempting)
                    .count();
            if (closed || empty > keep) {
                sessions.remove(s);
                retired = s;
            }
        }
        if (retired != null) {
            retire(retired);
        }
    }

    /**
     * Ends a session that may hold locks: aborts its connection (where the driver or pool can,
     * which drops the physical connection even while another thread uses it), else closes it.
     *
     * @return whether this call ended it
     */
    boolean discard(Session s) {
        synchronized (this) {
            sessions.remove(s);
        }
        if (!s.end()) {
            return false;
        }
        try {
            s.connection().abort(Runnable::run);
        } catch (SQLException | RuntimeException | AbstractMethodError e) {
            ConnectionPool.closeQuietly(s.connection());
        }
        return true;
    }

    /** Closes a session that holds nothing, with the server's idle limit restored for whoever gets the connection next. */
    private void retire(Session s) {
        if (!s.end()) {
            return;
        }
        try {
            synchronized (s) {
                if (s.idleLimit() != 0 || s.checksClient()) {
                    sql.restore(s, timeoutSeconds);
                }
            }
            s.connection().close();
        } catch (SQLException | RuntimeException e) {
            try {
                s.connection().abort(Runnable::run);
            } catch (SQLException | RuntimeException | AbstractMethodError again) {
                ConnectionPool.closeQuietly(s.connection());
            }
        }
    }

    /** Closes the sessions that hold nothing and discards every other: their locks end with them. */
    @Override
    public void close() {
        List<Session> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(sessions);
            sessions.clear();
        }
        for (Session s : all) {
            if (s.count() == 0 && !s.attempting) {
                retire(s);
            } else {
                discard(s);
            }
        }
    }
}
