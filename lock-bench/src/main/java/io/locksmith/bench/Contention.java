package io.locksmith.bench;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The contended scenario issue 20 is judged by: one name, several contenders each on its own
 * client or connection (each stands for a process), each taking the name, letting it go at once
 * and asking again. It measures grants per second, the wait of each grant, how evenly the grants
 * fall on the contenders (fairness: fewest ÷ most) and the longest run of grants to one of them.
 *
 * <p>The grant order is kept as a sequence number drawn from one counter while the name is held,
 * into a list per contender; the lists are merged after the run, so a grant costs one atomic
 * increment and an array store on the holder's own thread.
 */
final class Contention {

    /** How long the floor's contenders sleep between attempts, as issue 20 defines the floor. */
    static final Duration POLL = Duration.ofNanos(100_000);

    private static final Duration LONG_WAIT = Duration.ofSeconds(60);

    private Contention() {}

    /** One contending process: takes the name, waiting as long as it must, and lets it go. */
    interface Contender extends AutoCloseable {
        /** Returns once this contender holds the name. */
        void acquire();

        /** Frees the name this contender holds. */
        void release();

        /** Closes the contender's client or connection. */
        @Override
        void close();
    }

    /**
     * What a run measured.
     *
     * @param grantsPerSecond grants in the measured window per second
     * @param grantsPerClient grants in the window to each contender, by contender
     * @param longestStreak the most consecutive grants in the window to one contender
     * @param waitNanos from asking to holding, in nanoseconds (the memory backend's waits are
     *     below a microsecond), one value per grant in the window
     */
    record Outcome(double grantsPerSecond, long[] grantsPerClient, int longestStreak, Histogram waitNanos) {

        /** @return fewest grants of one contender ÷ most; 0 if one got none, NaN if none got any */
        double fairness() {
            return Contention.fairness(grantsPerClient);
        }

        /** @return the wait's 99.9th percentile ÷ its median */
        double tailRatio() {
            return Contention.tailRatio(waitNanos);
        }

        /** @return the figures a row of the report carries beside rate and latency */
        Result.Fairness figures() {
            return new Result.Fairness(
                    fairness(),
                    Arrays.stream(grantsPerClient).min().orElse(0),
                    Arrays.stream(grantsPerClient).max().orElse(0),
                    waitNanos.getValueAtPercentile(99.9) / 1000.0,
                    tailRatio(),
                    longestStreak);
        }
    }

    /**
     * @param n how many contenders
     * @param open opens one contender on its own client or connection
     * @return n contenders; if one cannot be opened, those opened before it are closed
     */
    static List<Contender> open(int n, Supplier<Contender> open) {
        List<Contender> contenders = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                contenders.add(open.get());
            }
        } catch (RuntimeException e) {
            contenders.forEach(Contender::close);
            throw e;
        }
        return contenders;
    }

    /**
     * @param client the contender's own client, closed with the contender
     * @param name the lock's name
     * @return a contender that waits in the library's {@code acquire}
     */
    static Contender library(LockClient client, String name) {
        DistributedLock lock = client.lock(name);
        return new Contender() {
            private LockHandle held;

            @Override
            public void acquire() {
                held = lock.acquire(LONG_WAIT);
            }

            @Override
            public void release() {
                held.close();
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }

    /**
     * @param connection the contender's own connection of the backend's client library, closed with it
     * @param key the key
     * @return the floor's contender: one attempt every {@link #POLL} until it gets the key
     */
    static Contender polling(BackendBench.FloorConnection connection, String key) {
        return new Contender() {
            @Override
            public void acquire() {
                while (!connection.tryAcquire(key)) {
                    LockSupport.parkNanos(POLL.toNanos());
                }
            }

            @Override
            public void release() {
                connection.release(key);
            }

            @Override
            public void close() {
                connection.close();
            }
        };
    }

    /**
     * Runs the contenders, one thread each, for the warm-up and then the measured window; grants
     * within the window are counted. Closes the contenders.
     *
     * @param contenders the contenders, each on its own client or connection
     * @param warmUp how long to run before counting
     * @param measure how long to count
     * @return what the window measured
     * @throws InterruptedException if interrupted while waiting for the contenders to stop
     * @throws IllegalStateException if a contender failed, with its failure as the cause
     */
    static Outcome run(List<Contender> contenders, Duration warmUp, Duration measure) throws InterruptedException {
        int n = contenders.size();
        long start = System.nanoTime() + warmUp.toNanos();
        long end = start + measure.toNanos();
        AtomicInteger sequence = new AtomicInteger();
        Recorder waits = new Recorder(3);
        int[][] grantSequences = new int[n][];
        int[] grantCounts = new int[n];
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        try {
            for (int c = 0; c < n; c++) {
                int id = c;
                Contender contender = contenders.get(c);
                Thread worker = new Thread(
                        () -> {
                            int[] mine = new int[1024];
                            int count = 0;
                            try {
                                while (System.nanoTime() < end && failure.get() == null) {
                                    long asked = System.nanoTime();
                                    contender.acquire();
                                    long granted = System.nanoTime();
                                    if (granted >= start && granted < end) {
                                        if (count == mine.length) {
                                            mine = Arrays.copyOf(mine, count * 2);
                                        }
                                        // drawn while holding: the sequence is the grant order
                                        mine[count++] = sequence.getAndIncrement();
                                        waits.recordValue(Math.max(1, granted - asked));
                                    }
                                    contender.release();
                                }
                            } catch (RuntimeException e) {
                                failure.compareAndSet(null, e);
                            }
                            grantSequences[id] = mine;
                            grantCounts[id] = count;
                        },
                        "bench-contender-" + c);
                worker.start();
                workers.add(worker);
            }
            for (Thread w : workers) {
                w.join();
            }
        } finally {
            contenders.forEach(Contender::close);
        }
        if (failure.get() != null) {
            throw new IllegalStateException(
                    "a contender failed: " + failure.get().getMessage(), failure.get());
        }
        long[] grants = new long[n];
        for (int c = 0; c < n; c++) {
            grants[c] = grantCounts[c];
        }
        int[] order = grantOrder(grantSequences, grantCounts);
        return new Outcome(
                order.length / (measure.toNanos() / 1e9), grants, longestStreak(order), waits.getIntervalHistogram());
    }

    /**
     * @param sequences each contender's grant sequence numbers (0, 1, 2, … over all contenders)
     * @param counts how many of each contender's numbers are used
     * @return the contender of each grant, in grant order
     */
    static int[] grantOrder(int[][] sequences, int[] counts) {
        int[] order = new int[Arrays.stream(counts).sum()];
        for (int c = 0; c < sequences.length; c++) {
            for (int i = 0; i < counts[c]; i++) {
                order[sequences[c][i]] = c;
            }
        }
        return order;
    }

    /**
     * @param grantOrder the contender of each grant, in grant order
     * @return the most consecutive grants to one contender; 0 if there were none
     */
    static int longestStreak(int[] grantOrder) {
        int longest = 0;
        int streak = 0;
        for (int i = 0; i < grantOrder.length; i++) {
            streak = i > 0 && grantOrder[i] == grantOrder[i - 1] ? streak + 1 : 1;
            longest = Math.max(longest, streak);
        }
        return longest;
    }

    /**
     * @param grantsPerClient grants of each contender
     * @return fewest ÷ most; 0 if one got none, NaN if none got any
     */
    static double fairness(long[] grantsPerClient) {
        long most = Arrays.stream(grantsPerClient).max().orElse(0);
        long fewest = Arrays.stream(grantsPerClient).min().orElse(0);
        return most == 0 ? Double.NaN : (double) fewest / most;
    }

    /**
     * @param waits the waits
     * @return the 99.9th percentile ÷ the median
     */
    static double tailRatio(Histogram waits) {
        return (double) waits.getValueAtPercentile(99.9) / waits.getValueAtPercentile(50);
    }
}
