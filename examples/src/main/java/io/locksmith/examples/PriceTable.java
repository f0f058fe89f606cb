package io.locksmith.examples;

import io.locksmith.DistributedReadWriteLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.Map;

/**
 * A read-write lock: many instances read the price table at once; one rebuilds it, and while it
 * does nobody reads a half-written table. A rebuild that waits is not starved by the readers: no
 * new reader is let in until it has run.
 */
public final class PriceTable {

    private final DistributedReadWriteLock lock;
    private final Prices prices;

    /**
     * @param locks the application's client; its backend must keep read-write locks
     * @param prices where the table is kept
     */
    public PriceTable(LockClient locks, Prices prices) {
        this.lock = locks.readWriteLock("price-table");
        this.prices = prices;
    }

    /**
     * Reads a price, sharing the table with other readers.
     *
     * @param sku the article
     * @return its price in cents
     */
    public long quote(String sku) {
        try (LockHandle reading = lock.readLock().acquire(Duration.ofSeconds(5))) {
            return prices.price(sku);
        }
    }

    /**
     * Replaces the whole table while no one reads it.
     *
     * @param table every article's new price
     */
    public void rebuild(Map<String, Long> table) {
        try (LockHandle writing = lock.writeLock().acquire(Duration.ofMinutes(1))) {
            prices.replaceAll(table, writing.fencingToken()); // the store refuses an older writer's table
        }
    }

    /** Where the table is kept. */
    public interface Prices {
        /**
         * @param sku the article
         * @return its price in cents
         */
        long price(String sku);

        /**
         * Replaces the table, unless a write with a higher token came first.
         *
         * @param table the new table
         * @param fencingToken the writer's fencing token
         */
        void replaceAll(Map<String, Long> table, long fencingToken);
    }
}
