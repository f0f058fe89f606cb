package io.locksmith.tck;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Bad arguments get a clear exception at once: never a hang, never a silent default. */
interface ArgumentRules extends Rules {

    @Test
    default void required_badNamesAreRejected() {
        LockContract c = contract();
        LockClient client = c.client();
        c.expectThrows(NullPointerException.class, () -> client.lock(null), "a null name must be rejected");
        c.expectThrows(IllegalArgumentException.class, () -> client.lock(""), "an empty name must be rejected");
        c.expectThrows(
                IllegalArgumentException.class,
                () -> client.lock("x".repeat(1025)),
                "a name of 1,025 characters must be rejected");
    }

    @Test
    default void required_badDurationsAreRejected() {
        LockContract c = contract();
        DistributedLock lock = c.client().lock(c.name("durations"));
        c.expectThrows(NullPointerException.class, () -> lock.acquire(null), "a null wait must be rejected");
        c.expectThrows(
                IllegalArgumentException.class,
                () -> lock.acquire(Duration.ofSeconds(-1)),
                "a negative wait must be rejected");
        c.expectThrows(
                IllegalArgumentException.class,
                () -> lock.acquireAsync(Duration.ofSeconds(-1)),
                "a negative wait must be rejected by acquireAsync");
        c.expectThrows(
                IllegalArgumentException.class, () -> lock.withLease(Duration.ZERO), "a zero lease must be rejected");
        c.expectThrows(
                IllegalArgumentException.class,
                () -> lock.withLease(Duration.ofSeconds(-5)),
                "a negative lease must be rejected");
    }

    @Test
    default void required_aLeaseTheBackendCannotHonourIsRejected() {
        LockContract c = contract();
        Duration tooShort = c.caps().minimumLease().dividedBy(2);
        DistributedLock lock = c.client().lock(c.name("lease"));
        if (!tooShort.isZero()) {
            LockException e = c.expectThrows(
                    LockConfigurationException.class,
                    () -> lock.withLease(tooShort),
                    "a lease shorter than the provider's minimum must be rejected");
            c.check(e.getMessage() != null && !e.getMessage().isBlank(), "the rejection must say why");
        }
        c.expectThrows(
                LockConfigurationException.class,
                () -> lock.withLease(Duration.ofDays(10_000)),
                "a lease of 10,000 days must be rejected");
    }
}
