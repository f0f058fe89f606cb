package io.locksmith.jdbc;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Grant;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.spi.Ticker;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Session mode's waits, in the server's own lock queue: each waiting acquisition takes a session
 * that holds nothing and blocks on it, in {@code pg_advisory_lock} on PostgreSQL and in
 * {@code GET_LOCK} with a timeout on MariaDB and MySQL (then takes its token), so the server
 * grants a released lock to the longest waiter at the release itself, before any later attempt
 * (fair by construction, and no attempt of the waiter's own on the way from one holder to the
 * next). A wait statement lasts at most {@link #CHUNK_MILLIS}; a longer wait queues again, behind
 * whoever queued in the meantime, so that a connection that died unseen is noticed.
 *
 * <p>A wait first tries the lock once as any attempt does, on the caller's thread and a session
 * shared with other held locks; only a refused one takes a session of its own to block on, so a
 * client keeps one connection per waiting acquisition while it waits, and none for locks that
 * were free.
 *
 * <p>The server starts a granted session's idle timer when its last statement ends, which the
 * client cannot date, but which comes after the statement's send: a grant's lease counts from the
 * send of the statement that waited for it. Where that send is a third of the lease or more in the
 * past, the grant is confirmed by one renewal on the session first, and its lease counts from that
 * renewal's send. A wait the core gives up is cancelled
 * ({@link java.sql.Statement#cancel()}); its session is then ended, since the cancel may have
 * come after the grant. Each wait runs on a thread of its own.
 */
final class SessionQueue implements QueuedAcquirer, AutoCloseable {

    /** The longest one wait statement blocks on the server; a longer wait queues again. */
    static final long CHUNK_MILLIS = 30_000;

    private final SessionBackend backend;
    private final SessionSql sql;
    private final SessionPool sessions;
    private final NameIds ids;
    private final Ticker ticker;
    private final int timeoutSeconds;
    private final String description;
    private final Set<Wait> waits = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads;

    SessionQueue(
            SessionBackend backend,
            SessionSql sql,
            SessionPool sessions,
            NameIds ids,
            Ticker ticker,
            int timeoutSeconds,
            String description) {
        this.backend = backend;
        this.sql = sql;
        this.sessions = sessions;
        this.ids = ids;
        this.ticker = ticker;
        this.timeoutSeconds = timeoutSeconds;
        this.description = description;
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "locksmith-session-wait-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Tries the lock once on the caller's thread, as any attempt does; only a refused attempt
     * starts a wait on a thread of its own.
     */
    @Override
    public Ticket enqueue(AcquireRequest request) {
        Wait w = new Wait(request);
        try {
            long sent = ticker.nanoTime();
            if (backend.tryAcquire(request) instanceof Grant g) {
                w.granted.complete(g.confirmedAt(sent)); // free: held on a shared session, no connection of its own
                return w;
            }
        } catch (LockBackendException e) {
            w.granted.completeExceptionally(e);
            return w;
        }
        waits.add(w);
        try {
            threads.execute(w);
        } catch (RejectedExecutionException e) {
            waits.remove(w);
            w.granted.completeExceptionally(
                    new LockBackendException("the lock client on " + description + " is closing"));
        }
        return w;
    }

    /** Cancels every wait under way, so that each leaves the server's queue at once. */
    @Override
    public void close() {
        threads.shutdown();
        for (Wait w : waits) {
            w.cancel();
        }
    }

    /** One waiting acquisition: its session, and the statement that blocks on the server. */
    private final class Wait implements Ticket, Runnable {

        private final AcquireRequest request;
        private final CompletableFuture<Grant> granted = new CompletableFuture<>();
        private boolean cancelled; // guarded by this
        private PreparedStatement running; // guarded by this

        Wait(AcquireRequest request) {
            this.request = request;
        }

        @Override
        public CompletableFuture<Grant> granted() {
            return granted;
        }

        @Override
        public void run() {
            try {
                queueFor(ids.id(request.key(), request.name()));
            } catch (LockBackendException e) {
                granted.completeExceptionally(e);
            } catch (RuntimeException e) {
                granted.completeExceptionally(new LockBackendException(
                        "waiting for lock '" + request.name() + "' failed on " + description, e));
            } finally {
                waits.remove(this);
            }
        }

        private void queueFor(long id) {
            Session s;
            try {
                s = sessions.takeEmpty();
            } catch (SQLException e) {
                throw SqlErrors.failure("wait", request.name(), description, e);
            }
            try {
                Long token = null;
                long sent = 0;
                synchronized (s) {
                    while (token == null) {
                        if (cancelledNow()) {
                            sessions.done(s);
                            granted.completeExceptionally(cancelledFailure());
                            return;
                        }
                        sent = ticker.nanoTime();
                        token = sql.waitLock(s, id, request.lease(), CHUNK_MILLIS, timeoutSeconds, this::started);
                    }
                    stopped();
                    s.hold(id, new Session.Holding(request.key(), request.owner(), sql.idleLimit(request.lease())));
                    long confirmed = sent;
                    long now = ticker.nanoTime();
                    if (now - sent >= request.lease().toNanos() / 3) {
                        confirmed = now; // most of the lease from the send is gone: restart it
                        sql.renew(s, sql.idleLimit(request.lease()), timeoutSeconds);
                    }
                    sessions.done(s);
                    granted.complete(new Grant(token, new SessionBackend.Pinned(s, id)).confirmedAt(confirmed));
                }
            } catch (SQLException e) {
                stopped();
                sessions.discard(s); // it may hold the lock (a cancel after the grant): its end frees it
                s.endHoldings();
                throw cancelledNow() ? cancelledFailure() : SqlErrors.failure("wait", request.name(), description, e);
            }
        }

        private synchronized boolean cancelledNow() {
            return cancelled;
        }

        private synchronized void started(PreparedStatement st) {
            running = st;
        }

        private synchronized void stopped() {
            running = null;
        }

        private LockBackendException cancelledFailure() {
            return new LockBackendException(
                    "the wait for lock '" + request.name() + "' on " + description + " was cancelled");
        }

        /**
         * Cancels the statement if it waits (a cancel that comes as the statement starts is seen
         * by the next chunk, or the grant is released by the core); a cancel that cannot be sent
         * ends the session.
         */
        @Override
        public void cancel() {
            PreparedStatement st;
            synchronized (this) {
                if (cancelled) {
                    return;
                }
                cancelled = true;
                st = running;
            }
            if (st != null) {
                try {
                    st.cancel();
                } catch (SQLException | RuntimeException e) {
                    java.sql.Connection c = connectionOf(st);
                    try {
                        if (c != null) {
                            c.abort(Runnable::run);
                        }
                    } catch (SQLException | RuntimeException | AbstractMethodError again) {
                        ConnectionPool.closeQuietly(c);
                    }
                }
            }
        }
    }

    private static java.sql.Connection connectionOf(PreparedStatement st) {
        try {
            return st.getConnection();
        } catch (SQLException e) {
            return null;
        }
    }
}
