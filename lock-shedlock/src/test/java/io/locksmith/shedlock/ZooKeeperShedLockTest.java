package io.locksmith.shedlock;

import io.locksmith.testing.TestServers;
import java.time.Duration;

/**
 * ShedLock's provider behaviour on ZooKeeper (a server started by lock-testing). The client's lease,
 * and so its session, is 30 s: a lockAtMostFor may not be longer than the session.
 */
class ZooKeeperShedLockTest extends ShedLockProviderContract {

    @Override
    String provider() {
        return "zookeeper";
    }

    @Override
    String uri() {
        return TestServers.zookeeper().uri() + "?lease=30s";
    }

    @Override
    Duration minimumLease() {
        return Duration.ofMillis(100);
    }
}
