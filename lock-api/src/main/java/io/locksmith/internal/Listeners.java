package io.locksmith.internal;

import io.locksmith.LockClientClosedException;
import io.locksmith.LockInterruptedException;
import io.locksmith.LockListener;
import io.locksmith.LockListener.AcquisitionEnded;
import io.locksmith.LockListener.AcquisitionStarted;
import io.locksmith.LockListener.Outcome;
import io.locksmith.LockTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's {@link LockListener}s, copied on write: with none registered, each event costs one
 * volatile read. A listener that throws is logged and spoils no other.
 */
final class Listeners {

    private static final Logger log = LoggerFactory.getLogger(Listeners.class);
    private static final LockListener[] NONE = new LockListener[0];

    private volatile LockListener[] all = NONE;
    private final AtomicLong ids = new AtomicLong();

    synchronized LockListener.Registration add(LockListener listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        LockListener[] next = Arrays.copyOf(all, all.length + 1);
        next[all.length] = listener;
        all = next;
        return () -> remove(listener);
    }

    private synchronized void remove(LockListener listener) {
        for (int i = 0; i < all.length; i++) {
            if (all[i] == listener) {
                LockListener[] next = new LockListener[all.length - 1];
                System.arraycopy(all, 0, next, 0, i);
                System.arraycopy(all, i + 1, next, i, all.length - i - 1);
                all = next;
                return;
            }
        }
    }

    /** @return whether no listener is registered (then no event object need be made) */
    boolean none() {
        return all.length == 0;
    }

    /** @return the start event, or {@code null} if nobody listens */
    AcquisitionStarted started(String lockName, String backend, Duration wait) {
        return started(lockName, backend, "lock", wait);
    }

    /** @return what listeners are told is acquired or held for a kind of hold */
    static String kind(io.locksmith.spi.Hold hold) {
        return switch (hold.kind()) {
            case EXCLUSIVE -> "lock";
            case PERMIT -> "semaphore";
            case READ -> "read";
            case WRITE -> "write";
        };
    }

    AcquisitionStarted started(String lockName, String backend, String kind, Duration wait) {
        LockListener[] ls = all;
        if (ls.length == 0) {
            return null;
        }
        AcquisitionStarted e = new AcquisitionStarted(lockName, backend, kind, wait, ids.incrementAndGet());
        for (LockListener l : ls) {
            try {
                l.acquisitionStarted(e);
            } catch (RuntimeException failure) {
                threw(l, failure);
            }
        }
        return e;
    }

    /**
     * Reports an acquisition's end (and, if it acquired, the hold's start).
     *
     * @param started the start event, or {@code null} if nobody listened then
     */
    void ended(
            AcquisitionStarted started,
            long startNanos,
            long nowNanos,
            DefaultLockHandle handle,
            Outcome outcomeIfNoHandle,
            Throwable failure) {
        LockListener[] ls = all;
        if (started == null || ls.length == 0) {
            return;
        }
        Outcome outcome = handle != null ? Outcome.ACQUIRED : failure != null ? outcomeOf(failure) : outcomeIfNoHandle;
        AcquisitionEnded e = new AcquisitionEnded(
                started,
                outcome,
                Duration.ofNanos(Math.max(0, nowNanos - startNanos)),
                handle == null ? -1 : handle.fencingToken(),
                failure);
        LockListener.Hold hold = handle == null ? null : handle.announce(started.backend());
        for (LockListener l : ls) {
            try {
                l.acquisitionEnded(e);
            } catch (RuntimeException thrown) {
                threw(l, thrown);
            }
            if (hold != null) {
                try {
                    l.held(hold);
                } catch (RuntimeException thrown) {
                    threw(l, thrown);
                }
            }
        }
    }

    void released(LockListener.HoldEnded e) {
        for (LockListener l : all) {
            try {
                l.released(e);
            } catch (RuntimeException failure) {
                threw(l, failure);
            }
        }
    }

    void lost(LockListener.HoldEnded e) {
        for (LockListener l : all) {
            try {
                l.lost(e);
            } catch (RuntimeException failure) {
                threw(l, failure);
            }
        }
    }

    void renewed(LockListener.Renewal e) {
        for (LockListener l : all) {
            try {
                l.renewed(e);
            } catch (RuntimeException failure) {
                threw(l, failure);
            }
        }
    }

    static Outcome outcomeOf(Throwable failure) {
        Throwable t =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (t instanceof LockTimeoutException) {
            return Outcome.TIMEOUT;
        }
        if (t instanceof CancellationException) {
            return Outcome.CANCELLED;
        }
        if (t instanceof LockInterruptedException) {
            return Outcome.INTERRUPTED;
        }
        if (t instanceof LockClientClosedException) {
            return Outcome.CLOSED;
        }
        return Outcome.ERROR;
    }

    private static void threw(LockListener l, RuntimeException e) {
        log.warn("a lock listener ({}) threw", l.getClass().getName(), e);
    }
}
