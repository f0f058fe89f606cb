package io.locksmith.internal;

import io.locksmith.spi.ReleaseSignals;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Shares a backend's release signals among a client's waiters: one backend subscription per key,
 * however many waiters, and each signal wakes only the longest-waiting of them. A release frees
 * the lock for one new holder, so waking every waiter would only make all but one of them ask the
 * backend in vain; the others keep sleeping until the next release (or their holder's lease end).
 */
final class SignalHub {

    private final ReleaseSignals backend;
    private final Map<String, Waiters> byKey = new HashMap<>();

    SignalHub(ReleaseSignals backend) {
        this.backend = backend;
    }

    /** Registers a waiter; the returned subscription removes it. */
    ReleaseSignals.Subscription subscribe(String key, Runnable wake) {
        Waiters w;
        boolean first;
        synchronized (this) {
            w = byKey.computeIfAbsent(key, k -> new Waiters());
            first = w.queue.isEmpty() && w.subscription == null;
            w.queue.addLast(wake);
        }
        if (first) {
            // outside the hub's lock: subscribing waits for the backend's confirmation
            ReleaseSignals.Subscription s = backend.subscribe(key, () -> signalled(key));
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
        return () -> unsubscribe(key, w, wake);
    }

    private void unsubscribe(String key, Waiters w, Runnable wake) {
        ReleaseSignals.Subscription toClose = null;
        synchronized (this) {
            w.queue.remove(wake);
            if (w.queue.isEmpty() && byKey.get(key) == w) {
                byKey.remove(key);
                toClose = w.subscription;
            }
        }
        if (toClose != null) {
            toClose.close();
        }
    }

    private void signalled(String key) {
        Runnable head;
        synchronized (this) {
            Waiters w = byKey.get(key);
            head = w == null ? null : w.queue.peekFirst();
        }
        if (head != null) {
            head.run();
        }
    }

    private static final class Waiters {
        final Deque<Runnable> queue = new ArrayDeque<>();
        ReleaseSignals.Subscription subscription;
    }
}
