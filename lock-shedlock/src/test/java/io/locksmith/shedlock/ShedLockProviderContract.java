package io.locksmith.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LossReason;
import io.locksmith.spi.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;

/**
 * ShedLock's documented provider behaviour (the cases of its {@code AbstractLockProviderIntegrationTest}
 * and {@code AbstractExtensibleLockProviderIntegrationTest}) held against {@link LocksmithLockProvider}
 * on one backend. Two clients of the backend stand for two instances of an application; a subclass
 * gives the backend's URI and its shortest lease.
 *
 * <p>Where time is the subject, waits are bounded generously ({@link #MARGIN}) and the rules assert
 * order (refused before, granted after), never exact durations.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ShedLockProviderContract {

    /** Headroom for a busy machine on top of every lease-based wait. */
    static final Duration MARGIN = Duration.ofSeconds(20);
    /** A lockAtMostFor that no test waits out. */
    static final Duration LONG = Duration.ofSeconds(10);
    /** A lockAtLeastFor below etcd's and Azure's minimum lease, so that unlock keeps a remainder no lease could. */
    static final Duration AT_LEAST = Duration.ofSeconds(1);

    private LockClient clientA;
    private LockClient clientB;
    /** The instance under test. */
    LocksmithLockProvider instanceA;
    /** The other instance, whose attempts say whether the lock is held. */
    LocksmithLockProvider instanceB;

    private String name;

    /** @return a name for failure messages, such as {@code redis} */
    abstract String provider();

    /** @return the URI both clients open; locks of the two must exclude each other */
    abstract String uri();

    /** @return the backend's minimum lease, as its {@code minimumLease()} declares */
    abstract Duration minimumLease();

    /** @return a lockAtMostFor that runs out soon: at least the minimum lease, long enough for a round trip on a busy machine */
    Duration shortLease() {
        return minimumLease().compareTo(Duration.ofSeconds(1)) > 0 ? minimumLease() : Duration.ofSeconds(1);
    }

    @BeforeAll
    void open() {
        clientA = LockClient.open(uri());
        clientB = LockClient.open(uri());
        instanceA = new LocksmithLockProvider(clientA);
        instanceB = new LocksmithLockProvider(clientB);
    }

    @AfterAll
    void close() {
        if (clientA != null) {
            clientA.close();
        }
        if (clientB != null) {
            clientB.close();
        }
    }

    @BeforeEach
    void name(TestInfo test) {
        name = "shedlock-" + test.getTestMethod().orElseThrow().getName() + "-" + System.nanoTime();
    }

    @Test
    void required_aSecondLockIsRefusedUntilUnlock() {
        SimpleLock lock = lock(config(LONG, Duration.ZERO));
        check(instanceB.lock(config(LONG, Duration.ZERO)).isEmpty(), "another instance must be refused a held lock");
        check(instanceA.lock(config(LONG, Duration.ZERO)).isEmpty(), "the holder's own second attempt must be refused");
        lock.unlock();
        assertFree("an unlocked lock must be free at once");
    }

    @Test
    void required_locksOfDifferentNamesAreIndependent() {
        SimpleLock first = lock(config(LONG, Duration.ZERO));
        Optional<SimpleLock> other =
                instanceB.lock(new LockConfiguration(Instant.now(), name + "-other", LONG, Duration.ZERO));
        check(other.isPresent(), "a lock of another name must be granted while the first is held");
        other.get().unlock();
        first.unlock();
    }

    @Test
    void required_aLockCanBeTakenAgainRightAfterUnlock() {
        for (int i = 0; i < 10; i++) {
            SimpleLock lock = lock(config(LONG, Duration.ZERO));
            check(
                    instanceB.lock(config(LONG, Duration.ZERO)).isEmpty(),
                    "round " + i + ": the held lock must be refused");
            lock.unlock();
        }
    }

    @Test
    void required_lockAtMostForEndsTheLockOfAJobThatDoesNotUnlock() {
        long start = System.nanoTime();
        SimpleLock lock = lock(config(shortLease(), Duration.ZERO));
        LockHandle handle = LocksmithLockProvider.currentLock().orElseThrow();
        SimpleLock next = eventuallyLocked(
                instanceB,
                shortLease().plus(MARGIN),
                "another instance must get the lock once lockAtMostFor has passed");
        check(
                Duration.ofNanos(System.nanoTime() - start).compareTo(shortLease()) >= 0,
                "the lock must not be granted again before lockAtMostFor");
        check(
                awaitLoss(handle) == LossReason.LEASE_EXPIRED,
                "the job's handle must report the lease's expiry as its loss");
        lock.unlock();
        check(
                instanceA.lock(config(LONG, Duration.ZERO)).isEmpty(),
                "unlocking an expired lock must leave the next owner's lock");
        next.unlock();
    }

    @Test
    void required_unlockKeepsTheLockUntilLockAtLeastForHasPassed() {
        long start = System.nanoTime();
        lock(config(LONG, AT_LEAST)).unlock();
        check(
                instanceB.lock(config(LONG, Duration.ZERO)).isEmpty(),
                "an unlocked lock must stay held until lockAtLeastFor");
        SimpleLock next = eventuallyLocked(
                instanceB, AT_LEAST.plus(MARGIN), "the lock must be freed once lockAtLeastFor has passed");
        Duration freedAfter = Duration.ofNanos(System.nanoTime() - start);
        check(
                freedAfter.compareTo(AT_LEAST) >= 0,
                "the lock must not be freed before lockAtLeastFor, was after " + freedAfter);
        check(
                freedAfter.compareTo(LONG) < 0,
                "the lock must be freed at lockAtLeastFor, not when its lease of lockAtMostFor ends");
        next.unlock();
    }

    @Test
    void required_extendKeepsTheLockPastTheFirstLockAtMostFor() {
        SimpleLock lock = lock(config(shortLease(), Duration.ZERO));
        Optional<SimpleLock> extended = lock.extend(LONG, Duration.ZERO);
        check(extended.isPresent(), "a held lock must be extended");
        throughout(
                shortLease().multipliedBy(2),
                () -> instanceB.lock(config(LONG, Duration.ZERO)).isEmpty(),
                "an extended lock must stay held past the first lockAtMostFor");
        extended.get().unlock();
        assertFree("unlocking the extended lock must free it");
    }

    @Test
    void required_extendAfterExpiryIsRefused() {
        SimpleLock lock = lock(config(shortLease(), Duration.ZERO));
        LockHandle handle = LocksmithLockProvider.currentLock().orElseThrow();
        awaitLoss(handle);
        check(lock.extend(LONG, Duration.ZERO).isEmpty(), "an expired lock must not be extended");
        assertFree("a refused extension must leave the lock free");
    }

    @Test
    void required_extendAfterUnlockThrows() {
        SimpleLock lock = lock(config(LONG, Duration.ZERO));
        lock.unlock();
        assertThatThrownBy(() -> lock.extend(LONG, Duration.ZERO))
                .as(rule("an unlocked lock must not be extended"))
                .isInstanceOf(IllegalStateException.class);
        assertFree("an extension refused after unlock must leave the lock free");
    }

    @Test
    void required_anExtendedLockIsReplacedByItsExtension() {
        SimpleLock lock = lock(config(LONG, Duration.ZERO));
        SimpleLock extended = lock.extend(LONG, Duration.ZERO).orElseThrow();
        assertThatThrownBy(lock::unlock)
                .as(rule("the lock that was extended must not be unlocked"))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> lock.extend(LONG, Duration.ZERO))
                .as(rule("the lock that was extended must not be extended again"))
                .isInstanceOf(IllegalStateException.class);
        check(instanceB.lock(config(LONG, Duration.ZERO)).isEmpty(), "the extension must hold the lock");
        extended.unlock();
        assertFree("unlocking the extension must free the lock");
    }

    @Test
    void required_extendCountsLockAtLeastForFromTheExtension() {
        SimpleLock lock = lock(config(LONG, Duration.ZERO));
        SimpleLock extended = lock.extend(LONG, AT_LEAST).orElseThrow();
        extended.unlock();
        check(
                instanceB.lock(config(LONG, Duration.ZERO)).isEmpty(),
                "an extension's lockAtLeastFor must keep the lock after unlock");
        eventuallyLocked(instanceB, AT_LEAST.plus(MARGIN), "the extension's lockAtLeastFor must end")
                .unlock();
    }

    @Test
    void required_lockAtMostForBelowTheMinimumLeaseIsRefusedNamingBoth() {
        Duration tooShort = minimumLease().dividedBy(2);
        assertThatThrownBy(() -> instanceA.lock(config(tooShort, Duration.ZERO)))
                .as(rule("a lockAtMostFor the backend cannot keep must be refused"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("lockAtMostFor of lock '" + name + "'")
                .hasMessageContaining(Durations.format(minimumLease()));
        assertFree("a refused lockAtMostFor must leave the lock free");
    }

    @Test
    void required_theRunningJobSeesItsFencingTokenAndItGrows() {
        DefaultLockingTaskExecutor executor = new DefaultLockingTaskExecutor(instanceA);
        AtomicLong first = new AtomicLong();
        AtomicLong second = new AtomicLong();
        executor.executeWithLock(
                (Runnable) () -> first.set(LocksmithLockProvider.currentToken().orElseThrow()),
                config(LONG, Duration.ZERO));
        executor.executeWithLock(
                (Runnable) () -> second.set(LocksmithLockProvider.currentToken().orElseThrow()),
                config(LONG, Duration.ZERO));
        check(second.get() > first.get(), "a later grant's token must be greater: " + first + " then " + second);
        check(
                LocksmithLockProvider.currentToken().equals(OptionalLong.empty()),
                "no token must be seen once the job ended");
    }

    @Test
    void required_aScheduledJobRunsOnOneInstanceAndCanExtendItsLock() {
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean otherRan = new AtomicBoolean();
        new DefaultLockingTaskExecutor(instanceA)
                .executeWithLock(
                        (Runnable) () -> {
                            runs.incrementAndGet();
                            LockExtender.extendActiveLock(LONG, Duration.ZERO);
                            check(
                                    LocksmithLockProvider.currentLock()
                                            .orElseThrow()
                                            .isHeld(),
                                    "the job's lock must be held after LockExtender");
                            CompletableFuture.runAsync(() -> new DefaultLockingTaskExecutor(instanceB)
                                            .executeWithLock(
                                                    (Runnable) () -> otherRan.set(true), config(LONG, Duration.ZERO)))
                                    .join();
                        },
                        config(shortLease(), Duration.ZERO));
        check(runs.get() == 1 && !otherRan.get(), "the job must run on the instance that holds its lock only");
        assertFree("the job's lock must be free once it ended");
    }

    // ---- helpers

    LockConfiguration config(Duration lockAtMostFor, Duration lockAtLeastFor) {
        return new LockConfiguration(Instant.now(), name, lockAtMostFor, lockAtLeastFor);
    }

    private SimpleLock lock(LockConfiguration config) {
        Optional<SimpleLock> lock = instanceA.lock(config);
        check(lock.isPresent(), "a free lock must be granted");
        return lock.get();
    }

    private SimpleLock eventuallyLocked(LocksmithLockProvider instance, Duration within, String rule) {
        SimpleLock[] got = new SimpleLock[1];
        await().alias(rule(rule))
                .atMost(within)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    got[0] = instance.lock(config(LONG, Duration.ZERO)).orElse(null);
                    return got[0] != null;
                });
        return got[0];
    }

    private void throughout(Duration period, BooleanSupplier condition, String rule) {
        await().alias(rule(rule))
                .during(period)
                .atMost(period.plus(MARGIN))
                .pollInterval(Duration.ofMillis(100))
                .until(condition::getAsBoolean);
    }

    private LossReason awaitLoss(LockHandle handle) {
        try {
            return handle.whenLost()
                    .toCompletableFuture()
                    .get(shortLease().plus(MARGIN).toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError(rule("a lock past its lockAtMostFor must be reported lost"), e);
        }
    }

    private void assertFree(String rule) {
        Optional<SimpleLock> lock = instanceB.lock(config(LONG, Duration.ZERO));
        check(lock.isPresent(), rule);
        lock.get().unlock();
    }

    void check(boolean condition, String rule) {
        assertThat(condition).as(rule(rule)).isTrue();
    }

    String rule(String rule) {
        return "[" + provider() + "] " + rule;
    }
}
