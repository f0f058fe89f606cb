package io.locksmith.shedlock;

import io.locksmith.testing.TestServers;
import java.time.Duration;

/**
 * ShedLock's provider behaviour on etcd (a server started by lock-testing), whose leases are whole
 * seconds, at least 2 s: lockAtLeastFor's 1 s remainder after unlock is shorter than any lease.
 */
class EtcdShedLockTest extends ShedLockProviderContract {

    @Override
    String provider() {
        return "etcd";
    }

    @Override
    String uri() {
        return TestServers.etcd().uri();
    }

    @Override
    Duration minimumLease() {
        return Duration.ofSeconds(2);
    }
}
