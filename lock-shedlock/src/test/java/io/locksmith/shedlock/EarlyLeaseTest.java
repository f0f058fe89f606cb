package io.locksmith.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.Grant;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;

/**
 * A grant whose lease the backend counts from before the attempt, as etcd's shared leases do, is
 * extended once so that the lock lasts lockAtMostFor; a grant counted from the attempt costs no
 * extra call. The in-memory backend, its grants dated 3 s back by a decorator, stands for etcd.
 */
class EarlyLeaseTest {

    private static final Duration LOCK_AT_MOST_FOR = Duration.ofSeconds(10);

    private final AtomicInteger renewals = new AtomicInteger();

    @Test
    void aLeaseCountedFromBeforeTheAttemptIsExtendedOnce() {
        try (LockClient client = LockClient.open("memory:", LockOptions.defaults(), EarlyGrants::new)) {
            SimpleLock lock = new LocksmithLockProvider(client).lock(config()).orElseThrow();
            assertThat(renewals).as("one extend of the early-counted lease").hasValue(1);
            assertThat(LocksmithLockProvider.currentLock().orElseThrow().remainingLease())
                    .as("the lease counted from the extend")
                    .isGreaterThan(LOCK_AT_MOST_FOR.minusSeconds(2));
            lock.unlock();
        }
    }

    @Test
    void aLeaseCountedFromTheAttemptCostsNoExtend() {
        try (LockClient client = LockClient.open("memory:", LockOptions.defaults(), Counted::new)) {
            SimpleLock lock = new LocksmithLockProvider(client).lock(config()).orElseThrow();
            assertThat(renewals)
                    .as("no extend of a lease counted from the attempt")
                    .hasValue(0);
            lock.unlock();
        }
    }

    private static LockConfiguration config() {
        return new LockConfiguration(Instant.now(), "report", LOCK_AT_MOST_FOR, Duration.ZERO);
    }

    /** Counts renewals (an extend is one). */
    private class Counted extends ForwardingLockBackend {
        Counted(LockBackend delegate) {
            super(delegate);
        }

        @Override
        public List<RenewOutcome> renew(List<HeldLease> leases) {
            renewals.incrementAndGet();
            return super.renew(leases);
        }
    }

    /** Dates every grant's lease 3 s before the attempt. */
    private class EarlyGrants extends Counted {
        EarlyGrants(LockBackend delegate) {
            super(delegate);
        }

        @Override
        public AcquireResult tryAcquire(AcquireRequest request) {
            AcquireResult result = super.tryAcquire(request);
            return result instanceof Grant grant
                    ? grant.confirmedAt(
                            System.nanoTime() - Duration.ofSeconds(3).toNanos())
                    : result;
        }
    }
}
