package io.locksmith.examples;

import io.locksmith.DistributedSemaphore;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A semaphore: at most three calls to the payment provider at once, across every instance of the
 * application, because the provider's contract allows no more.
 */
public final class PaymentProviderLimit {

    /** The provider's limit; every instance must give the same number. */
    static final int CONCURRENT_CALLS = 3;

    private final DistributedSemaphore calls;

    /** @param locks the application's client; its backend must keep semaphores */
    public PaymentProviderLimit(LockClient locks) {
        this.calls = locks.semaphore("payment-provider", CONCURRENT_CALLS);
    }

    /**
     * Makes a call to the provider once one of the three permits is free.
     *
     * @param call the call, made while this instance holds a permit
     * @param <T> what the call returns
     * @return what the call returned
     * @throws io.locksmith.LockTimeoutException if no permit came free within 30 seconds
     */
    public <T> T call(Supplier<T> call) {
        try (LockHandle permit = calls.acquire(Duration.ofSeconds(30))) {
            return call.get();
        }
    }
}
