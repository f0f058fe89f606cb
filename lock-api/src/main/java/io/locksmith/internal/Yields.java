package io.locksmith.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The keys this client released after having had to wait for them, and when: a client that asks
 * again for such a key at once yields first, so that a waiter of another client, polling, can
 * take it. Without it, the releasing thread's next attempt (made the moment it lets go) wins
 * almost every race against waiters that poll with back-off, and one client keeps the lock for
 * long streaks while the others starve.
 */
final class Yields {

    /**
     * How many waits in a row yield after one that found the key held: a wait that yielded and was
     * granted at its first attempt may have won no race (its peers may have gone), so the yields
     * stop after this many such grants.
     */
    static final int CREDIT = 3;

    /** Entries older than this many windows are dropped when the table grows. */
    private static final int PRUNE_AT = 1024;

    private final Map<String, long[]> releasedAt = new ConcurrentHashMap<>(); // key -> {when, credit}

    /** A moving average of how long this client's attempts take, 0 before the first. */
    private volatile long attemptNanos;

    /**
     * Notes that a key this client waited for was released at {@code now}.
     *
     * @param credit how many more waits may yield, from 1 to {@link #CREDIT}
     */
    void released(String key, long now, int credit) {
        releasedAt.put(key, new long[] {now, credit});
    }

    /**
     * Notes how long an attempt took, for {@link #pauseNanos}: an average over about the last
     * eight (updates may race and lose one; it is an estimate).
     */
    void attemptTook(long nanos) {
        long avg = attemptNanos;
        attemptNanos = avg == 0 ? Math.max(1, nanos) : avg + (Math.max(0, nanos) - avg) / 8;
    }

    /**
     * How long a wait yields on a backend that sends no release signals: long enough for the
     * longest waiter, whose back-off has shrunk to the minimum, to wake and for its attempt to
     * reach the server. Two to two and a half minimum back-offs, plus two of this client's recent
     * attempt times: on a server whose round trip is longer than the back-off (Azure: tens of
     * milliseconds when contended) a yield of back-offs alone ends before the waiter's attempt
     * arrives, and the releasing client takes the lock again. At most the maximum back-off.
     */
    long pauseNanos(long minNanos, long maxNanos) {
        long pause = 2 * minNanos + ThreadLocalRandom.current().nextLong(minNanos / 2 + 1) + 2 * attemptNanos;
        return Math.max(minNanos, Math.min(maxNanos, pause));
    }

    /** Forgets the key's release: the next acquisition of it does not yield. */
    void forget(String key) {
        releasedAt.remove(key);
    }

    /**
     * Whether a new acquisition of the key should yield: the key was released by this client
     * after a wait, less than {@code windowNanos} ago. Forgets the release either way.
     *
     * @return the yield's credit, or 0 if it should not yield
     */
    int take(String key, long now, long windowNanos) {
        long[] at = releasedAt.remove(key);
        if (releasedAt.size() > PRUNE_AT) {
            releasedAt.values().removeIf(t -> now - t[0] > windowNanos);
        }
        return at != null && now - at[0] < windowNanos ? (int) at[1] : 0;
    }
}
