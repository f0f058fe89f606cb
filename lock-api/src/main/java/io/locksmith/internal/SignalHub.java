package io.locksmith.internal;

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
 */
final class SignalHub {

    private final ReleaseSignals backend;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SignalHub.class);

    private final Map<String, Waiters> byKey = new HashMap<>();
    private boolean refusalLogged;
    private volatile boolean queues; // the backend named a next owner: it keeps its waiters in order

    SignalHub(ReleaseSignals backend) {
        this.backend = backend;
    }

    /**
     * Registers a waiter; the returned subscription removes it.
     *
     * @return the subscription, or {@code null} if the backend refused to subscribe (a Redis ACL
     *     user without channel rights): the waiter backs off instead, and the key's next waiter
     *     asks the backend again
     */
    Membership subscribe(String key, String owner, Runnable wake) {
        Waiters w;
        boolean first;
        synchronized (this) {
            w = byKey.computeIfAbsent(key, k -> new Waiters());
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
        return new Membership(() -> unsubscribe(key, owner, w, wake), w);
    }

    /**
     * A waiter's place among a key's waiters. It stops being {@linkplain #live() live} when the
     * key's subscription was refused after the waiter joined (it joined while the first waiter's
     * subscribe was still in flight): the waiter then backs off rather than wait for a signal.
     */
    static final class Membership implements ReleaseSignals.Subscription {
        private final Runnable leave;
        private final Waiters waiters;

        private Membership(Runnable leave, Waiters waiters) {
            this.leave = leave;
            this.waiters = waiters;
        }

        boolean live() {
            return !waiters.refused;
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
                byKey.remove(key);
                toClose = w.subscription;
            }
        }
        if (toClose != null) {
            toClose.close();
        }
    }

    /** A release signal for a key, from the backend: wakes the key's next waiter. */
    void signalled(String key) {
        Runnable head;
        synchronized (this) {
            Waiters w = byKey.get(key);
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
        volatile boolean refused;
    }
}
