package io.locksmith.examples;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.Optional;

/** The README's quick start, kept here so that the build compiles and runs it. */
public final class QuickStart {

    private QuickStart() {}

    /**
     * Charges an order once, whichever instance of the application gets there first.
     *
     * @param uri the lock backend, for example {@code "memory:"} or {@code "redis://localhost:6379"}
     * @param payments where the charge goes
     * @param orderId the order
     */
    public static void chargeOnce(String uri, Payments payments, String orderId) {
        // quick-start:begin
        try (LockClient locks = LockClient.open(uri)) {
            DistributedLock lock = locks.lock("order:" + orderId);
            try (LockHandle held = lock.acquire(Duration.ofSeconds(10))) { // or LockTimeoutException
                held.onLost(() -> payments.abort(orderId)); // the lease could not be kept
                payments.chargeIfNotCharged(orderId, held.fencingToken()); // the token travels with the write
            }
            Optional<LockHandle> now = lock.tryAcquire(); // never waits
            now.ifPresent(LockHandle::close);
        }
        // quick-start:end
    }

    /** The resource the lock protects. */
    public interface Payments {
        /**
         * Charges the order unless it was charged already, refusing writes with an older token.
         *
         * @param orderId the order
         * @param fencingToken the lock's fencing token
         */
        void chargeIfNotCharged(String orderId, long fencingToken);

        /**
         * Stops a charge in progress.
         *
         * @param orderId the order
         */
        void abort(String orderId);
    }
}
