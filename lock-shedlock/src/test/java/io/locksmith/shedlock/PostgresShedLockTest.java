package io.locksmith.shedlock;

import io.locksmith.testing.TestServers;
import java.time.Duration;

/** ShedLock's provider behaviour on PostgreSQL through lock-jdbc (a server started by lock-testing). */
class PostgresShedLockTest extends ShedLockProviderContract {

    @Override
    String provider() {
        return "postgresql";
    }

    @Override
    String uri() {
        return TestServers.postgres().uri();
    }

    @Override
    Duration minimumLease() {
        return Duration.ofMillis(10);
    }
}
