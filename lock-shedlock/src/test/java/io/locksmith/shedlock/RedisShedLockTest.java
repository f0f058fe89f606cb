package io.locksmith.shedlock;

import io.locksmith.testing.TestServers;
import java.time.Duration;

/** ShedLock's provider behaviour on Redis (a server started by lock-testing). */
class RedisShedLockTest extends ShedLockProviderContract {

    @Override
    String provider() {
        return "redis";
    }

    @Override
    String uri() {
        return TestServers.redis().uri();
    }

    @Override
    Duration minimumLease() {
        return Duration.ofMillis(10);
    }
}
