package io.locksmith.jdbc;

import io.locksmith.LossReason;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Session mode ({@code mode=session}): each lock is a server lock held by a database session the
 * client keeps open — PostgreSQL's {@code pg_try_advisory_lock}, MariaDB's and MySQL's
 * {@code GET_LOCK} — on the key's id from the names table ({@link NameIds}). A session holds the
 * locks of up to {@link SessionPool#PER_SESSION} grants, never two of one key. The lease is the
 * session: its idle limit is set to the lease, so the server ends a silent session and its locks
 * one lease after its last statement, and each renewal tick is one round trip per holding
 * session. Fencing tokens come from a sequence (PostgreSQL) or the key's counter row (MariaDB,
 * MySQL), taken while the lock is held.
 *
 * <p>Failure policy: a renewal that the server answered keeps the grant; one whose connection
 * is closed or was killed reports the grant lost ({@link RenewOutcome#NOT_OWNED}), since the
 * server's session and its lock are gone or going; any other failure (a timeout, a refused call)
 * is {@link RenewOutcome#FAILED} and the core retries while the lease lasts. An attempt that
 * failed, or that the core gave up while it ran, ends its session, which frees whatever the
 * attempt took, and reports the session's other grants lost ({@link BackendEvents#lost}). Locks only: semaphores and read-write locks need row mode.
 */
final class SessionBackend implements LockBackend {

    /** What a grant carries: the session that holds the lock, and the key's id. */
    record Pinned(Session session, long id) {}

    private final ConnectionPool pool;
    private final SessionSql sql;
    private final SessionPool sessions;
    private final NameIds ids;
    private final PgSignals signals;
    private final SessionQueue queue;
    private final BackendEvents events;
    private final int timeoutSeconds;
    private final String description;
    /** The session of each attempt under way, by owner, for {@link #abandon}. */
    private final Map<String, Session> attempts = new ConcurrentHashMap<>();

    SessionBackend(
            ConnectionPool pool,
            SessionSql sql,
            SessionPool sessions,
            PgSignals signals,
            BackendEvents events,
            int timeoutSeconds,
            String description,
            io.locksmith.spi.Ticker ticker) {
        this.pool = pool;
        this.sql = sql;
        this.sessions = sessions;
        this.signals = signals;
        this.events = events;
        this.timeoutSeconds = timeoutSeconds;
        this.description = description;
        this.ids = new NameIds(sql, new Calls(pool, description), timeoutSeconds);
        this.queue = new SessionQueue(this, sql, sessions, ids, ticker, timeoutSeconds, description);
    }

    @Override
    public String description() {
        return description;
    }

    /** PostgreSQL's idle limit is in milliseconds; MariaDB's and MySQL's in whole seconds. */
    @Override
    public Duration minimumLease() {
        return sql.dialect() == Dialect.POSTGRESQL ? Duration.ofMillis(10) : Duration.ofSeconds(1);
    }

    /** The largest idle limit the server takes: 2^31-1 ms (PostgreSQL), a year (MariaDB, MySQL). */
    @Override
    public Duration maximumLease() {
        return sql.dialect() == Dialect.POSTGRESQL ? Duration.ofMillis(Integer.MAX_VALUE) : Duration.ofDays(365);
    }

    @Override
    public Set<Hold.Kind> holds() {
        return Set.of(Hold.Kind.EXCLUSIVE);
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        long id = ids.id(request.key(), request.name());
        long limit = sql.idleLimit(request.lease());
        Session s;
        try {
            s = sessions.take(id, limit);
        } catch (SQLException e) {
            throw SqlErrors.failure("acquire", request.name(), description, e);
        }
        attempts.put(request.owner(), s);
        try {
            Long token;
            synchronized (s) {
                token = sql.tryLock(s, id, request.lease(), timeoutSeconds);
                if (token != null) {
                    s.hold(id, new Session.Holding(request.key(), request.owner(), limit));
                }
            }
            if (s.abandoned()) {
                end(s); // given up while it ran: whatever it took ends with the session
                return Held.UNKNOWN;
            }
            return token == null ? Held.UNKNOWN : new Grant(token, new Pinned(s, id));
        } catch (SQLException e) {
            end(s); // it may hold the lock without our knowing: end the session
            throw SqlErrors.failure("acquire", request.name(), description, e);
        } finally {
            attempts.remove(request.owner(), s);
            sessions.done(s);
        }
    }

    /**
     * One round trip per session that holds any of the leases, at the largest idle limit its
     * grants ask for; its outcome is every one of its leases'.
     */
    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        RenewOutcome[] outcomes = new RenewOutcome[leases.size()];
        Map<Session, List<Integer>> bySession = new IdentityHashMap<>();
        for (int i = 0; i < leases.size(); i++) {
            bySession
                    .computeIfAbsent(leases.get(i).attachment(Pinned.class).session(), k -> new ArrayList<>())
                    .add(i);
        }
        bySession.forEach((s, indices) -> renew(s, leases, indices, outcomes));
        return List.of(outcomes);
    }

    private void renew(Session s, List<HeldLease> leases, List<Integer> indices, RenewOutcome[] outcomes) {
        synchronized (s) {
            List<Integer> held = new ArrayList<>(indices.size());
            for (int i : indices) {
                HeldLease lease = leases.get(i);
                long id = lease.attachment(Pinned.class).id();
                if (s.holds(id, lease.owner())) {
                    s.holdAgain(id, sql.idleLimit(lease.lease()));
                    held.add(i);
                } else {
                    outcomes[i] = RenewOutcome.NOT_OWNED;
                }
            }
            if (held.isEmpty()) {
                return;
            }
            RenewOutcome outcome;
            try {
                sql.renew(s, s.largestIdleLimit(), timeoutSeconds);
                outcome = RenewOutcome.RENEWED;
            } catch (SQLException e) {
                outcome = sessionEnded(s, e) ? RenewOutcome.NOT_OWNED : RenewOutcome.FAILED;
            }
            for (int i : held) {
                outcomes[i] = outcome;
            }
        }
    }

    /**
     * @return whether a failure says the server's session is gone: the driver closed the
     *     connection (an I/O error, the server's idle limit), or the server ended it (terminated
     *     by an administrator, killed)
     */
    private static boolean sessionEnded(Session s, SQLException e) {
        try {
            if (s.ended() || s.connection().isClosed()) {
                return true;
            }
        } catch (SQLException | RuntimeException ignored) {
            return true;
        }
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.startsWith("57P") || state.equals("08003") || e.getErrorCode() == 1927;
    }

    @Override
    public boolean release(HeldLease lease) {
        return unlock(lease, "release");
    }

    /** Ends the session of an attempt still under way, which frees whatever it took. */
    @Override
    public void abandon(AcquireRequest request) {
        Session s = attempts.get(request.owner());
        if (s != null && s.abandon()) {
            end(s);
        }
    }

    /** Frees the grant's lock, or ends its session if that fails: the next waiter is not kept out. */
    @Override
    public void lost(HeldLease lease, LossReason reason) {
        unlock(lease, "unlock after loss");
    }

    /**
     * Frees the lease's lock if its session holds it for the lease's owner; a session whose
     * unlock failed or found nothing is ended, which ends its every lock.
     *
     * @return whether the lock was held and is now free
     */
    private boolean unlock(HeldLease lease, String what) {
        Pinned pinned = lease.attachment(Pinned.class);
        Session s = pinned.session();
        boolean freed;
        SQLException failed = null;
        synchronized (s) {
            if (!s.holds(pinned.id(), lease.owner())) {
                return false;
            }
            s.drop(pinned.id());
            try {
                freed = sql.unlock(s, pinned.id(), Keys.hash(lease.key()), timeoutSeconds);
            } catch (SQLException e) {
                failed = e;
                freed = false;
            }
        }
        if (!freed) {
            end(s); // ending the session ends the lock; a session in doubt is never used again
            if (failed != null) {
                throw SqlErrors.failure(what, lease.name(), description, failed);
            }
            return false;
        }
        sessions.emptied(s);
        return true;
    }

    /**
     * Ends a session whose state is in doubt, which frees its every lock on the server, and
     * reports the other grants it held lost (their handles would learn it at the next renewal).
     */
    private void end(Session s) {
        if (sessions.discard(s)) {
            for (Session.Holding h : s.endHoldings()) {
                events.lost(h.key(), h.owner(), LossReason.SESSION_LOST);
            }
        }
    }

    /** Waits are in the server's own lock queue ({@link SessionQueue}). */
    @Override
    public Optional<io.locksmith.spi.QueuedAcquirer> queue() {
        return Optional.of(queue);
    }

    @Override
    public Optional<ReleaseSignals> releaseSignals() {
        return Optional.ofNullable(signals);
    }

    @Override
    public void close() {
        try {
            queue.close();
            if (signals != null) {
                signals.close();
            }
        } finally {
            try {
                sessions.close();
            } finally {
                pool.close();
            }
        }
    }

    @Override
    public String toString() {
        return "SessionBackend[" + description + ", " + sql.dialect().product() + ", table " + sql.table() + "]";
    }
}
