package io.locksmith.tck;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** At most one holder per name, under contention from many threads over several clients. */
interface ExclusionRules extends Rules {

    int THREADS = 8;
    int CLIENTS = 4;
    int NAMES = 4;
    long MAX_HOLD_NANOS = 100_000;

    @Test
    default void required_mutualExclusionUnderContention() throws Exception {
        LockContract c = contract();
        List<LockClient> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(c.client());
        }
        AtomicIntegerArray occupancy = new AtomicIntegerArray(NAMES);
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger grants = new AtomicInteger();
        int target = c.caps().contentionGrants();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    int i = 0;
                    while (grants.get() < target) {
                        int slot = (thread + i++) % NAMES;
                        // the client is chosen apart from the name, so every name is contended
                        // across clients, not only among one client's threads
                        DistributedLock lock = clients.get(
                                        ThreadLocalRandom.current().nextInt(CLIENTS))
                                .lock(c.name("n" + slot));
                        try (LockHandle h = lock.acquire(c.margin().multipliedBy(10))) {
                            boolean overlapped = occupancy.incrementAndGet(slot) != 1 || !h.isHeld();
                            grants.incrementAndGet();
                            // held a moment, then checked again: a second holder granted meanwhile is seen
                            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(MAX_HOLD_NANOS + 1));
                            overlapped |= occupancy.get(slot) != 1 || !h.isHeld();
                            occupancy.decrementAndGet(slot);
                            if (overlapped) {
                                overlaps.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        c.check(overlaps.get() == 0, overlaps.get() + " of " + grants.get() + " grants overlapped another holder");
        c.check(grants.get() >= target, "only " + grants.get() + " grants were made");
    }

    @Test
    default void required_distinctNamesAreIndependent() {
        LockContract c = contract();
        LockClient one = c.client();
        LockClient two = c.client();
        try (LockHandle a = one.lock(c.name("a")).acquire(Duration.ZERO);
                LockHandle b = two.lock(c.name("b")).acquire(Duration.ZERO)) {
            c.check(a.isHeld() && b.isHeld(), "two clients must hold two different names at once");
        }
    }
}
