package io.locksmith.shedlock;

import io.locksmith.DistributedLock;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.Durations;
import java.time.Duration;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * ShedLock's {@code lockAtMostFor} as the lock's lease, with messages that say which ShedLock
 * setting the backend refused: a backend's lease bounds (etcd's 2 s, Azure's 15 to 60 s,
 * ZooKeeper's session) are news to a ShedLock user.
 */
final class Leases {

    static final String MORE = "see docs/shedlock.md, \"Lease bounds\"";

    private Leases() {}

    /** @return the lock with a lease of {@code lockAtMostFor} */
    static DistributedLock forJob(DistributedLock lock, LockConfiguration job) {
        requirePositive(job);
        try {
            return lock.withLease(job.getLockAtMostFor());
        } catch (LockConfigurationException e) {
            throw refused(job, e);
        }
    }

    /** ShedLock allows a {@code lockAtMostFor} of zero; no backend keeps a lease that short. */
    static void requirePositive(LockConfiguration job) {
        if (job.getLockAtMostFor().isZero()) {
            throw new LockConfigurationException("lockAtMostFor of lock '" + job.getName()
                    + "' is 0s: it is the lock's lease, and must be positive");
        }
    }

    /** @return the backend's refusal of {@code lockAtMostFor} as a lease, told in ShedLock's terms */
    static LockConfigurationException refused(LockConfiguration job, LockConfigurationException e) {
        Duration lease = job.getLockAtMostFor();
        return new LockConfigurationException(
                "lockAtMostFor of lock '" + job.getName() + "' (" + Durations.format(lease) + ") cannot be its lease: "
                        + e.getMessage() + "; " + MORE,
                e);
    }
}
