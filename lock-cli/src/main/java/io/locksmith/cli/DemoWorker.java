package io.locksmith.cli;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker process of the demo: it goes through the orders and charges each one that is not
 * charged yet — the check-then-act every payment job does.
 *
 * <p>Arguments: {@code MODE LEDGER ORDERS WORKER WORKERS LEASE_MS}, MODE being {@code none},
 * {@code locks} or {@code stall}; the lock URI comes in the environment variable
 * {@value #URI_VARIABLE}, as it may hold a password. In {@code stall}, worker 1 starts halfway through the orders and
 * freezes for two and a half leases inside its first critical section, as a long GC pause would,
 * with its lock's renewal stopped like every other thread of a paused process.
 */
public final class DemoWorker {

    /** The environment variable that carries the lock URI from the demo to its workers. */
    static final String URI_VARIABLE = "LOCKSMITH_DEMO_URI";

    private static final long PAYMENT_CALL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private DemoWorker() {}

    /**
     * @param args see the class comment
     * @throws Exception if the ledger or the lock backend fails
     */
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path ledgerFile = Path.of(args[1]);
        String uri = System.getenv(URI_VARIABLE);
        int orders = Integer.parseInt(args[2]);
        int worker = Integer.parseInt(args[3]);
        int workers = Integer.parseInt(args[4]);
        Duration lease = Duration.ofMillis(Long.parseLong(args[5]));
        boolean stalls = mode.equals("stall") && worker == 1;
        LockOptions options = LockOptions.builder()
                .lease(lease)
                .backoffMin(Duration.ofMillis(2))
                .backoffMax(Duration.ofMillis(50))
                .build();
        try (Ledger ledger = new Ledger(ledgerFile);
                LockClient locks = mode.equals("none") ? null : LockClient.open(uri, options)) {
            awaitStart(ledger, worker, workers);
            for (int i = 0; i < orders; i++) {
                int order = stalls ? (orders / 2 + i) % orders + 1 : i + 1;
                if (locks == null) {
                    chargeOnce(ledger, order, worker, 0, false);
                    continue;
                }
                boolean stallHere = stalls && i == 0;
                DistributedLock lock = locks.lock("demo-order:" + order);
                if (stallHere) {
                    lock = lock.withAutoRenew(false);
                }
                try (LockHandle held = lock.acquire(Duration.ofMinutes(2))) {
                    chargeOnce(ledger, order, worker, held.fencingToken(), stallHere);
                }
            }
        }
    }

    /**
     * Waits (at most a minute) until every worker is up: JVMs start at different speeds, and a
     * worker that started seconds early would charge every order alone, racing no one.
     */
    private static void awaitStart(Ledger ledger, int worker, int workers) throws Exception {
        ledger.ready(worker);
        long latest = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (ledger.readyCount() < workers && System.nanoTime() < latest) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /**
     * The simulated GC pause: at least {@code nanos} (past the lease), and on until another worker
     * has charged the order (at most 30 s), so that the stale write below meets a newer one.
     */
    private static void pause(Ledger ledger, int order, long nanos) throws Exception {
        long start = System.nanoTime();
        long latest = start + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - start < nanos || (!ledger.isCharged(order) && System.nanoTime() < latest)) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    private static void chargeOnce(Ledger ledger, int order, int worker, long token, boolean stall) throws Exception {
        if (ledger.isCharged(order)) {
            return;
        }
        if (stall) {
            pause(ledger, order, Long.getLong("locksmith.demo.stall-nanos", 0));
        }
        LockSupport.parkNanos(PAYMENT_CALL_NANOS); // the payment provider's round trip
        ledger.charge(order, worker, token);
    }
}
