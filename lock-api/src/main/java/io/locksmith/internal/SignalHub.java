package io.locksmith.internal;

import io.locksmith.spi.BackendScheduler.Scheduled;
import io.locksmith.spi.ReleaseSignals;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Shares a backend's release signals among a client's waiters: one backend subscription per key,
 * however many waiters, and each signal wakes one of them, in turn. A release frees the lock for
 * one new holder, so waking every waiter would only make all but one of them ask the backend in
 * vain; the others keep sleeping until a later release (or their safety-net timer). A backend
 * that queues its waiters names the owner the key goes to next, and only that owner's waiter,
 * if it is one of this client's, wakes.
 *
 * <p>A key's subscription outlives its last waiter by {@link #KEEP_NANOS}: a client that waits
 * for a lock again soon after (a worker taking the same lock job after job, or any contended
 * lock) reuses it instead of subscribing and unsubscribing around every wait, which on Redis
 * is two more commands per handoff and on PostgreSQL a {@code LISTEN} and an {@code UNLISTEN}.
 * Signals that arrive meanwhile wake nobody. Closing the client closes the kept subscriptions.
 */
final class SignalHub {

    /** How long a key's subscription is kept after its last waiter left. */
    static final long KEEP_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

    private final ReleaseSignals backend;
    private final CoreClock clock;
    private final Workers workers;
    private boolean closed; // guarded by this
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SignalHub.class);

    private final Map<String, Waiters> byKey = new HashMap<>();
    private boolean refusalLogged;
    private volatile boolean queues; // the backend named a next owner: it keeps its waiters in order

    /**
     * @param backend the backend's signals
     * @param clock the client's timer, which ends a kept subscription
     * @param workers where a kept subscription is closed (closing may wait for the backend)
     */
    SignalHub(ReleaseSignals backend, CoreClock clock, Workers workers) {
        this.backend = backend;
        this.clock = clock;
        this.workers = workers;
    }

    /**
     * Notes where a key's signals stand before an attempt, so that a waiter that joins after the
     * attempt was refused can tell whether a release may have come in between.
     *
     * <p>Only where the backend queues its waiters: elsewhere a waiter's second attempt is a poll
     * that often finds the key free between a release and the next grant, and skipping it
     * measurably cost PostgreSQL's row mode throughput and fairness.
     *
     * @return the mark, or {@code null} if the backend does not queue its waiters or the key has
     *     no subscription in effect now
     */
    synchronized Mark mark(String key) {
        Waiters w = queues ? byKey.get(key) : null;
        return w == null || w.subscription == null || w.refused ? null : new Mark(w, w.signals);
    }

    /** Where a key's signals stood: its waiters' entry and how many signals it had heard. */
    record Mark(Object waiters, long signals) {}

    /**
     * Registers a waiter whose latest attempt was sent after {@code mark} was taken.
     *
     * @param mark {@link #mark} taken before the waiter's latest attempt, or {@code null}
     * @return the subscription, or {@code null} if the backend refused to subscribe (a Redis ACL
     *     user without channel rights): the waiter backs off instead, and the key's next waiter
     *     asks the backend again; its {@link Membership#caughtUp()} says whether the subscription
     *     was in effect since the mark and heard no signal
     */
    Membership subscribe(String key, String owner, Runnable wake, Mark mark) {
        Waiters w;
        boolean first;
        boolean caughtUp;
        synchronized (this) {
            w = byKey.computeIfAbsent(key, k -> new Waiters());
            caughtUp = mark != null && mark.waiters() == w && mark.signals() == w.signals && w.subscription != null;
            if (w.keep != null) {
                w.keep.cancel(); // a kept subscription: in use again
                w.keep = null;
            }
            first = w.queue.isEmpty() && w.subscription == null;
            w.queue.addLast(wake);
            w.owners.put(owner, wake);
        }
        if (first) {
            // outside the hub's lock: subscribing waits for the backend's confirmation
            ReleaseSignals.Subscription s;
            try {
                s = backend.subscribe(key);
            } catch (RuntimeException e) {
                refused(key, w, wake, e);
                return null;
            }
            boolean keep;
            synchronized (this) {
                keep = byKey.get(key) == w && !w.queue.isEmpty();
                if (keep) {
                    w.subscription = s;
                }
            }
            if (!keep) {
                s.close();
            }
        }
        return new Membership(() -> unsubscribe(key, owner, w, wake), w, caughtUp);
    }

    /**
     * A waiter's place among a key's waiters. It stops being {@linkplain #live() live} when the
     * key's subscription was refused after the waiter joined (it joined while the first waiter's
     * subscribe was still in flight): the waiter then backs off rather than wait for a signal.
     */
    static final class Membership implements ReleaseSignals.Subscription {
        private final Runnable leave;
        private final Waiters waiters;
        private final boolean caughtUp;

        private Membership(Runnable leave, Waiters waiters, boolean caughtUp) {
            this.leave = leave;
            this.waiters = waiters;
            this.caughtUp = caughtUp;
        }

        boolean live() {
            return !waiters.refused;
        }

        /**
         * @return whether the backend queues its waiters and the key's subscription was in
         *     effect from the mark the waiter gave to its joining and heard no signal meanwhile:
         *     no release came after the waiter's attempt, so it need not try again before sleeping
         */
        boolean caughtUp() {
            return caughtUp;
        }

        @Override
        public void close() {
            leave.run();
        }
    }

    // Forgets every waiter of a failed first subscription, so that the key is not left with waiters
    // and no subscription (which would make every later waiter skip subscribing and sleep).
    private void refused(String key, Waiters w, Runnable wake, RuntimeException e) {
        boolean first;
        java.util.List<Runnable> joined;
        synchronized (this) {
            w.refused = true;
            w.queue.remove(wake);
            joined = java.util.List.copyOf(w.queue);
            w.queue.clear();
            w.owners.clear();
            if (byKey.get(key) == w) {
                byKey.remove(key);
            }
            first = !refusalLogged;
            refusalLogged = true;
        }
        if (first) {
            log.warn("release signals are unavailable ({}); waiters poll with back-off instead", e.toString());
        } else {
            log.debug("release signals for a key are unavailable: {}", e.toString());
        }
        // waiters that joined during the refused subscribe may be asleep awaiting a signal: wake
        // them, so that they try now and back off from then on
        joined.forEach(Runnable::run);
    }

    private void unsubscribe(String key, String owner, Waiters w, Runnable wake) {
        ReleaseSignals.Subscription toClose = null;
        synchronized (this) {
            w.queue.remove(wake);
            w.owners.remove(owner, wake);
            if (w.queue.isEmpty() && byKey.get(key) == w) {
                if (w.subscription != null && !closed && keep(key, w)) {
                    return;
                }
                byKey.remove(key);
                toClose = w.subscription;
            }
        }
        if (toClose != null) {
            toClose.close();
        }
    }

    /** Keeps a key's subscription, now without waiters, for {@link #KEEP_NANOS}; false if the timer is stopped. */
    private boolean keep(String key, Waiters w) { // under this
        try {
            long kept = ++w.kept;
            w.keep = clock.schedule(() -> workers.run(() -> endKeep(key, w, kept)), KEEP_NANOS);
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return false; // the client is closing
        }
    }

    private void endKeep(String key, Waiters w, long kept) {
        ReleaseSignals.Subscription toClose;
        synchronized (this) {
            if (w.kept != kept || w.keep == null || !w.queue.isEmpty() || byKey.get(key) != w) {
                return; // in use again, or already closed
            }
            w.keep = null;
            byKey.remove(key);
            toClose = w.subscription;
        }
        toClose.close();
    }

    /** Closes the subscriptions kept without waiters; later ones close with their last waiter. */
    void close() {
        java.util.List<ReleaseSignals.Subscription> kept = new java.util.ArrayList<>();
        synchronized (this) {
            closed = true;
            byKey.values().removeIf(w -> {
                if (w.keep == null) {
                    return false;
                }
                w.keep.cancel();
                w.keep = null;
                kept.add(w.subscription);
                return true;
            });
        }
        kept.forEach(ReleaseSignals.Subscription::close);
    }

    /** A release signal for a key, from the backend: wakes the key's next waiter. */
    void signalled(String key) {
        Runnable head;
        synchronized (this) {
            Waiters w = byKey.get(key);
            if (w != null) {
                w.signals++;
            }
            head = w == null ? null : w.queue.pollFirst();
            if (head != null) {
                // to the back: if it loses the race (to a thread that barged in, or another client),
                // the next release wakes the next waiter, so no waiter sleeps through every turn
                w.queue.addLast(head);
            }
        }
        if (head != null) {
            head.run();
        }
    }

    /**
     * A release signal for a key that names the owner it goes to next: wakes that owner's waiter
     * if it is this client's, else nobody here.
     */
    void signalled(String key, String next) {
        queues = true;
        Runnable waiter;
        synchronized (this) {
            Waiters w = byKey.get(key);
            if (w != null) {
                w.signals++;
            }
            waiter = w == null ? null : w.owners.get(next);
        }
        if (waiter != null) {
            waiter.run();
        }
    }

    /**
     * @return whether the backend has named the owner a key goes to next: it keeps its waiters in
     *     a queue, so a releasing client need not yield to them
     */
    boolean queues() {
        return queues;
    }

    private static final class Waiters {
        final Deque<Runnable> queue = new ArrayDeque<>();
        final Map<String, Runnable> owners = new HashMap<>();
        ReleaseSignals.Subscription subscription;
        Scheduled keep; // while the subscription is kept without waiters
        long kept; // counts the times it was kept, so that an old keep's end closes no later one
        long signals; // the signals heard, for marks
        volatile boolean refused;
    }
}
