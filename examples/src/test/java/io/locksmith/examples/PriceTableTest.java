package io.locksmith.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PriceTableTest {

    /** A table in memory that says when a reader or the writer is inside, and lets the test hold them there. */
    private static final class Table implements PriceTable.Prices {
        final Map<String, Long> prices = new ConcurrentHashMap<>(Map.of("apple", 100L));
        final AtomicLong lastToken = new AtomicLong();
        final AtomicBoolean writing = new AtomicBoolean();
        final AtomicBoolean readDuringWrite = new AtomicBoolean();
        volatile CountDownLatch readers = new CountDownLatch(0); // readers wait here until all of them are in
        volatile CountDownLatch writer = new CountDownLatch(0); // the writer waits here until the test opens it
        final CountDownLatch writerIn = new CountDownLatch(1);

        @Override
        public long price(String sku) {
            if (writing.get()) {
                readDuringWrite.set(true);
            }
            readers.countDown();
            awaitQuietly(readers);
            return prices.get(sku);
        }

        @Override
        public void replaceAll(Map<String, Long> table, long fencingToken) {
            writing.set(true);
            writerIn.countDown();
            awaitQuietly(writer);
            if (fencingToken > lastToken.getAndAccumulate(fencingToken, Math::max)) {
                prices.clear();
                prices.putAll(table);
            }
            writing.set(false);
        }

        private static void awaitQuietly(CountDownLatch latch) {
            try {
                assertThat(latch.await(1, TimeUnit.MINUTES)).as("latch opened").isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void readersShareTheTable() throws Exception {
        Table table = new Table();
        table.readers = new CountDownLatch(2); // each reader goes on only once the other is in too
        try (LockClient locks = LockClient.open("memory:")) {
            PriceTable prices = new PriceTable(locks, table);
            CompletableFuture<Long> one = CompletableFuture.supplyAsync(() -> prices.quote("apple"));
            CompletableFuture<Long> two = CompletableFuture.supplyAsync(() -> prices.quote("apple"));
            assertThat(one.get(1, TimeUnit.MINUTES) + two.get(1, TimeUnit.MINUTES))
                    .as("[memory] read-write example: two readers read at once")
                    .isEqualTo(200L);
        }
    }

    @Test
    void aRebuildShutsReadersOutUntilItIsDone() throws Exception {
        Table table = new Table();
        table.writer = new CountDownLatch(1);
        try (LockClient locks = LockClient.open("memory:")) {
            PriceTable prices = new PriceTable(locks, table);
            CompletableFuture<Void> rebuild =
                    CompletableFuture.runAsync(() -> prices.rebuild(Map.of("apple", 120L, "pear", 80L)));
            assertThat(table.writerIn.await(1, TimeUnit.MINUTES)).isTrue();
            CompletableFuture<Long> quote = CompletableFuture.supplyAsync(() -> prices.quote("pear"));
            await("the reader waits for the lock")
                    .during(Duration.ofMillis(300))
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> !quote.isDone());
            table.writer.countDown();
            rebuild.get(1, TimeUnit.MINUTES);
            assertThat(quote.get(1, TimeUnit.MINUTES))
                    .as("[memory] read-write example: the reader sees the rebuilt table")
                    .isEqualTo(80L);
            assertThat(table.readDuringWrite)
                    .as("[memory] read-write example: no reader while the writer writes")
                    .isFalse();
            assertThat(table.lastToken.get()).isPositive();
        }
    }
}
