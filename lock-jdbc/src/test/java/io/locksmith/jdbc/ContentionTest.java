package io.locksmith.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LockTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The lock-table contention measurement of issue 8: 16 threads on each of 4 clients on 1 and on 100
 * names, counting SQL errors (any backend failure), overlaps (a second holder, or a grant that is
 * not held when handed out) and grants. The normal build runs 3 s per case; the 60 s run
 * is {@code ./mvnw -B -ntp -pl lock-jdbc verify -Dtest=ContentionTest -Dlocksmith.contention.seconds=60}.
 */
class ContentionTest {

    private static final int CLIENTS = 4;
    private static final int THREADS = 16 * CLIENTS;

    @ParameterizedTest(name = "{0}, {1} names")
    @CsvSource({"POSTGRES,1", "POSTGRES,100", "MARIADB,1", "MARIADB,100", "H2,1", "H2,100", "SQLITE,1", "SQLITE,100"})
    void noSqlErrorsAndNoOverlapsUnderContention(Database database, int names) throws Exception {
        long seconds = Long.getLong("locksmith.contention.seconds", 3);
        String run = "contention-" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36) + "-";
        LockOptions options =
                LockOptions.builder().lease(Duration.ofSeconds(10)).build();
        List<LockClient> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(JdbcLocks.open(
                    new CuttableDataSource(database.url(), database.properties()), options, Map.of("pool-size", "4")));
        }
        AtomicIntegerArray occupancy = new AtomicIntegerArray(names);
        LongAdder grants = new LongAdder();
        LongAdder sqlErrors = new LongAdder();
        LongAdder overlaps = new LongAdder();
        LongAdder timeouts = new LongAdder();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                LockClient client = clients.get(t % CLIENTS);
                done.add(pool.submit(() -> {
                    while (System.nanoTime() - end < 0) {
                        int slot = ThreadLocalRandom.current().nextInt(names);
                        try (LockHandle h = client.lock(run + slot).acquire(Duration.ofSeconds(30))) {
                            if (occupancy.incrementAndGet(slot) != 1 || !h.isHeld()) {
                                overlaps.increment();
                            }
                            grants.increment();
                            occupancy.decrementAndGet(slot);
                        } catch (LockTimeoutException e) {
                            timeouts.increment();
                        } catch (LockBackendException e) {
                            sqlErrors.increment();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
            clients.forEach(LockClient::close);
        }
        System.out.printf(
                "contention %s names=%d threads=%d over clients=%d seconds=%d: grants=%d (%.0f/s) sqlErrors=%d"
                        + " overlaps=%d timeouts=%d%n",
                database,
                names,
                THREADS,
                CLIENTS,
                seconds,
                grants.sum(),
                grants.sum() / (double) seconds,
                sqlErrors.sum(),
                overlaps.sum(),
                timeouts.sum());
        assertThat(sqlErrors.sum())
                .as(database + ": SQL errors under contention")
                .isZero();
        assertThat(overlaps.sum()).as(database + ": overlapping holders").isZero();
        assertThat(grants.sum()).as(database + ": grants").isPositive();
    }
}
