package io.locksmith.consumers.spring;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/** The starter in a user's application: locksmith.uri opens the client, @Locked takes the lock. */
@SpringBootTest
class RestockingTest {

    @Autowired
    Restocking restocking;

    @Autowired
    LockClient locks;

    @Test
    void aRestockRunsUnderItsLockAndASecondOneIsSkipped() throws Exception {
        assertTrue(locks.backend().startsWith("jdbc:h2:"), "[spring-boot] the client is the one locksmith.uri names: "
                + locks.backend());
        assertNotNull(restocking.restock("apples"), "[spring-boot] @Locked: a free lock runs the method with its token");

        restocking.pause();
        CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> {
            try {
                return restocking.restock("pears");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(restocking.awaitStarted(), "[spring-boot] the first restock should start, holding the lock");
        assertNull(restocking.restock("pears"), "[spring-boot] @Locked(SKIP): a held lock skips the second restock");
        restocking.resume();
        assertNotNull(first.get(30, TimeUnit.SECONDS), "[spring-boot] the first restock ends with its token");
        Optional<LockHandle> again = locks.lock("restock:pears").tryAcquire();
        again.ifPresent(LockHandle::close);
        assertTrue(again.isPresent(), "[spring-boot] @Locked: the lock is released when the method returns");
    }
}
