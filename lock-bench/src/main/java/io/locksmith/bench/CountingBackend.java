package io.locksmith.bench;

import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.RenewOutcome;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A backend that counts the core's renewal calls on their way to the real one; a client opens
 * over it with {@link io.locksmith.LockClient#open(String, io.locksmith.LockOptions,
 * java.util.function.UnaryOperator)}.
 */
final class CountingBackend extends ForwardingLockBackend {

    final AtomicLong renewCalls = new AtomicLong();
    final AtomicLong renewedLeases = new AtomicLong();

    CountingBackend(LockBackend backend) {
        super(backend);
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        renewCalls.incrementAndGet();
        renewedLeases.addAndGet(leases.size());
        return super.renew(leases);
    }
}
