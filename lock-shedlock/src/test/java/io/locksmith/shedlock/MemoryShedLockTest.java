package io.locksmith.shedlock;

import java.time.Duration;

/** ShedLock's provider behaviour on the in-memory backend: two clients of one {@code memory://} group. */
class MemoryShedLockTest extends ShedLockProviderContract {

    private final String group = "shedlock-" + System.nanoTime();

    @Override
    String provider() {
        return "memory";
    }

    @Override
    String uri() {
        return "memory://" + group;
    }

    @Override
    Duration minimumLease() {
        return Duration.ofMillis(1);
    }
}
