package io.locksmith.consumers.jpmsbom;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;

/** Takes and releases one lock on the backend that {@code LOCKSMITH_URI} names, and says so. */
public final class TakeALock {

    private TakeALock() {
    }

    public static void main(String[] args) {
        try (LockClient locks = LockClient.fromEnvironment()) {
            DistributedLock lock = locks.lock("consumers/jpms-bom");
            try (LockHandle held = lock.acquire(Duration.ofSeconds(30))) {
                System.out.println("held " + held.name() + " with token " + held.fencingToken());
            }
            System.out.println("released " + lock.name());
        }
    }
}
