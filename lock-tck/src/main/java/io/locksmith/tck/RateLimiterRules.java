package io.locksmith.tck;

import io.locksmith.RateLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A rate limiter grants at most its permits in any window of its length, across clients, and a
 * grant waits for the window. Every grant is timed from just before its attempt was sent to when
 * its answer came: the grant was made somewhere in between, and the window checks allow for that
 * uncertainty and nothing more. Every rule skips, saying so, if the provider keeps no semaphores.
 */
interface RateLimiterRules extends Rules {

    int RATE_PERMITS = 3;

    /** A grant made somewhere between {@code sent} and {@code answered} ({@link System#nanoTime()}). */
    record TimedGrant(long sent, long answered) {}

    @Test
    default void required_rateLimiterGrantsAtMostItsPermitsInAnyWindow() throws Exception {
        LockContract c = contract();
        String name = c.name("window");
        Duration per = c.lease();
        List<RateLimiter> limiters = List.of(
                c.rateLimiter(c.client(), name, RATE_PERMITS, per), c.rateLimiter(c.client(), name, RATE_PERMITS, per));
        List<TimedGrant> grants = new ArrayList<>();
        long end =
                System.nanoTime() + per.multipliedBy(3).plus(per.dividedBy(2)).toNanos();
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                RateLimiter limiter = limiters.get(t % limiters.size());
                done.add(pool.submit(() -> {
                    while (System.nanoTime() - end < 0) {
                        long sent = System.nanoTime();
                        boolean granted = limiter.tryAcquire();
                        long answered = System.nanoTime();
                        if (granted) {
                            synchronized (grants) {
                                grants.add(new TimedGrant(sent, answered));
                            }
                        } else {
                            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                c.complete(f, per.multipliedBy(10).plus(c.margin()), "a thread taking grants must finish");
            }
        } finally {
            pool.shutdownNow();
        }
        String crowded = crowdedWindow(grants, RATE_PERMITS, per);
        c.check(crowded == null, crowded + " in a window of " + per.toMillis() + " ms");
        c.check(
                grants.size() >= RATE_PERMITS * 3,
                "over three and a half windows of " + RATE_PERMITS + " permits, only " + grants.size()
                        + " grants were made; at least " + RATE_PERMITS * 3 + " were due");
    }

    @Test
    default void required_rateLimiterAGrantWaitsForTheWindow() {
        LockContract c = contract();
        String name = c.name("wait");
        Duration per = c.lease();
        RateLimiter one = c.rateLimiter(c.client(), name, 2, per);
        long firstSent = System.nanoTime();
        c.check(one.tryAcquire(), "the first grant of a fresh rate limiter must be made at once");
        c.check(one.tryAcquire(), "the second grant of a rate limiter of 2 must be made at once");
        long secondAnswered = System.nanoTime();
        c.check(!one.tryAcquire(), "tryAcquire() must be refused once the window's 2 grants are used");
        RateLimiter other = c.rateLimiter(c.client(), name, 2, per);
        c.check(!other.tryAcquire(), "another client's tryAcquire() must be refused once the window's grants are used");
        other.acquire(per.multipliedBy(2).plus(c.margin()));
        long thirdAnswered = System.nanoTime();
        c.check(
                thirdAnswered - firstSent >= per.toNanos(),
                "the third grant came " + TimeUnit.NANOSECONDS.toMillis(thirdAnswered - firstSent)
                        + " ms after the first was asked for, less than the window of " + per.toMillis() + " ms");
        c.check(
                thirdAnswered - secondAnswered <= per.plus(c.margin()).toNanos(),
                "a waiting grant must come once the oldest grant is one window old; it came "
                        + TimeUnit.NANOSECONDS.toMillis(thirdAnswered - secondAnswered)
                        + " ms after the second, more than the window plus "
                        + c.margin().toMillis() + " ms");
    }

    /**
     * Finds {@code permits + 1} grants that must have been made within less than {@code per}:
     * the latest of their answers came less than {@code per} after the earliest of their sends.
     *
     * @return what was found, or {@code null}
     */
    static String crowdedWindow(List<TimedGrant> grants, int permits, Duration per) {
        List<TimedGrant> bySend = new ArrayList<>(grants);
        bySend.sort((a, b) -> Long.compare(a.sent(), b.sent()));
        for (int i = 0; i < bySend.size(); i++) {
            TimedGrant first = bySend.get(i);
            // the others sent no earlier than it, those answered soonest: the tightest set it starts
            long[] answers = bySend.subList(i + 1, bySend.size()).stream()
                    .mapToLong(TimedGrant::answered)
                    .sorted()
                    .toArray();
            if (answers.length < permits) {
                break;
            }
            long latest = Math.max(first.answered(), answers[permits - 1]);
            if (latest - first.sent() < per.toNanos()) {
                return (permits + 1) + " grants were made within at most "
                        + TimeUnit.NANOSECONDS.toMillis(latest - first.sent()) + " ms (the first asked for at 0 ms"
                        + " and answered at " + TimeUnit.NANOSECONDS.toMillis(first.answered() - first.sent())
                        + " ms, the others answered at "
                        + Arrays.toString(Arrays.stream(Arrays.copyOf(answers, permits))
                                .map(a -> TimeUnit.NANOSECONDS.toMillis(a - first.sent()))
                                .toArray())
                        + " ms)";
            }
        }
        return null;
    }
}
