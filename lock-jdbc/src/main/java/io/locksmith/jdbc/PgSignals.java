package io.locksmith.jdbc;

import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.ReleaseSignals;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Release signals over PostgreSQL LISTEN/NOTIFY: one listening connection per client, opened on
 * the first wait, polled by one daemon thread with pgjdbc's {@code getNotifications(timeout)}.
 * The release statement notifies the table's channel with the key's hash as payload; a
 * notification for a subscribed key goes to the core's one callback,
 * {@link BackendEvents#released(String)}, which fans it out to the key's waiters.
 *
 * <p>The thread is its own, not the client's scheduler's: pgjdbc delivers notifications only to a
 * caller blocked in {@code getNotifications} on the listening connection, so a scheduled task
 * would hold a worker for as long, or poll and wake waiters late.
 *
 * <p>pgjdbc is reached by reflection so that lock-jdbc needs no driver at compile time. When the
 * connection fails the thread reconnects, and after each (re)connect it signals every subscribed
 * key, since releases may have gone unheard; while it is not listening, {@link #listening()} is
 * false and attempts report no remaining lease, so that waiters poll instead of sleeping on a
 * silent channel.
 */
final class PgSignals implements ReleaseSignals, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PgSignals.class);
    private static final long POLL_MILLIS = 500;

    private final ConnectionPool.Connector connector;
    private final NamedSql listen;
    private final NamedSql unlisten;
    private final long timeoutMillis;
    private final String where;
    private final BackendEvents events;
    // the subscribed keys by their hash, the notifications' payload; the core subscribes once per key
    private final ConcurrentHashMap<String, KeySubscription> subscribed = new ConcurrentHashMap<>();
    private final Object state = new Object();
    private Thread thread;
    private volatile boolean listening;
    private volatile boolean closed;

    PgSignals(
            ConnectionPool.Connector connector, String table, long timeoutMillis, String where, BackendEvents events) {
        this.connector = connector;
        this.listen = NamedSql.load("postgresql", "listen", table, Keys.channel(table));
        this.unlisten = NamedSql.load("postgresql", "unlisten", table);
        this.timeoutMillis = timeoutMillis;
        this.where = where;
        this.events = events;
    }

    /** @return whether releases are being heard now */
    boolean listening() {
        return listening;
    }

    @Override
    public Subscription subscribe(String key) {
        KeySubscription subscription = new KeySubscription(key);
        subscribed.put(subscription.hash, subscription);
        awaitListening();
        return subscription;
    }

    /** One key's subscription; closing it stops the key's signals unless a newer one replaced it. */
    private final class KeySubscription implements Subscription {
        final String key;
        final String hash;

        KeySubscription(String key) {
            this.key = key;
            this.hash = Keys.hash(key);
        }

        @Override
        public void close() {
            subscribed.remove(hash, this);
        }
    }

    /**
     * Starts the listener if needed and waits (at most the timeout) until LISTEN is in effect: the
     * core tries again right after subscribing, and a release before LISTEN would go unheard.
     * Never throws: a waiter whose signal fails still polls. The bound is real time, as the
     * server's answer takes it, whatever clock the client runs on.
     */
    private void awaitListening() {
        synchronized (state) {
            if (thread == null && !closed) {
                thread = new Thread(this::run, "locksmith-jdbc-listen");
                thread.setDaemon(true);
                thread.start();
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            long left;
            while (!listening && !closed && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(state, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void run() {
        while (!closed) {
            Connection c = null;
            try {
                c = connector.open();
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute(listen.text());
                }
                Class<?> pgConnection = Class.forName(
                        "org.postgresql.PGConnection", true, c.getClass().getClassLoader());
                Object pg = c.unwrap(pgConnection);
                Method poll = pgConnection.getMethod("getNotifications", int.class);
                // releases may have gone unheard; signalled before listening() turns true, so that a
                // subscribe that waited for the connection returns with these signals delivered
                subscribed.values().forEach(sub -> events.released(sub.key));
                setListening(true);
                while (!closed) {
                    Object[] notes = (Object[]) poll.invoke(pg, (int) POLL_MILLIS);
                    if (notes != null) {
                        for (Object note : notes) {
                            deliver((String)
                                    note.getClass().getMethod("getParameter").invoke(note));
                        }
                    }
                }
            } catch (Exception e) {
                if (!closed) {
                    LOG.debug("listening for lock releases on {} failed; reconnecting: {}", where, e.toString());
                }
            } finally {
                setListening(false);
                if (c != null) {
                    leave(c);
                }
            }
            pauseBeforeReconnect();
        }
    }

    private void deliver(String keyHash) {
        KeySubscription s = subscribed.get(keyHash);
        if (s != null) {
            events.released(s.key);
        }
    }

    private void leave(Connection c) {
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            s.execute(unlisten.text()); // the connection may go back to an application's pool
        } catch (Exception e) {
            // a broken connection has no subscription left to clear
        }
        ConnectionPool.closeQuietly(c);
    }

    private void setListening(boolean now) {
        synchronized (state) {
            listening = now;
            state.notifyAll();
        }
    }

    /** Not synchronisation: a pause between reconnection attempts, cut short by close(). */
    private void pauseBeforeReconnect() {
        synchronized (state) {
            if (!closed) {
                try {
                    state.wait(Math.min(1000, timeoutMillis));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    closed = true;
                }
            }
        }
    }

    @Override
    public void close() {
        synchronized (state) {
            closed = true;
            state.notifyAll();
        }
    }
}
