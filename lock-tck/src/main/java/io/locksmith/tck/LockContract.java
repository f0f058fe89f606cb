package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;

/**
 * The contract every lock provider keeps, as a JUnit 5 suite. A provider's test extends this
 * class and supplies a {@link TckSubject}; every rule is a test named {@code required_…} or
 * {@code optional_…}, and every assertion message names the provider and the rule.
 *
 * <pre>{@code
 * class RedisContractTest extends LockContract {
 *     protected TckSubject subject() { return new RedisSubject(server); }
 * }
 * }</pre>
 *
 * <p>Each test uses lock names of its own, so the suite can run against a server that is also
 * used for other things. Rules about time use leases scaled from {@link Capabilities#testLease()}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LockContract
        implements AcquisitionRules,
                ExclusionRules,
                ReleaseRules,
                RenewalRules,
                LossRules,
                FencingRules,
                NameRules,
                ArgumentRules,
                AsyncRules,
                ExtendRules,
                OutageRules,
                GiveUpRules,
                QueueRules,
                AdapterRules,
                StatusRules,
                SecretRules,
                SemaphoreRules,
                ReadWriteRules,
                LeaderRules,
                RateLimiterRules {

    private final String run = Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    private final List<LockClient> opened = new ArrayList<>();
    private TckSubject subject;
    private String rule = "?";

    /**
     * Supplies the provider under test; called once per test class.
     *
     * @return the subject
     */
    protected abstract TckSubject subject();

    /** @return this contract, for the rule interfaces */
    @Override
    public final LockContract contract() {
        return this;
    }

    @BeforeAll
    final void openSubject() {
        subject = Objects.requireNonNull(subject(), "subject()");
    }

    @AfterAll
    final void closeSubject() throws Exception {
        subject.close();
    }

    @BeforeEach
    final void nameRule(TestInfo info) {
        rule = info.getTestMethod().map(m -> m.getName()).orElse(info.getDisplayName());
    }

    @AfterEach
    final void closeClients() {
        synchronized (opened) {
            for (LockClient c : opened) {
                try {
                    c.close();
                } catch (RuntimeException e) {
                    // a client whose connection a rule cut may fail to release; its leases run out
                }
            }
            opened.clear();
        }
    }

    // ---- helpers for the rules ----

    TckSubject subjectUnderTest() {
        return subject;
    }

    Capabilities caps() {
        return subject.capabilities();
    }

    /** @return the lease rules about time use */
    Duration lease() {
        return caps().testLease();
    }

    /** @return a generous allowance for scheduling and network delays on a loaded machine */
    Duration margin() {
        Duration l = lease();
        return l.compareTo(Duration.ofSeconds(3)) > 0 ? l : Duration.ofSeconds(3);
    }

    /** @return a new client with the kit's default options */
    LockClient client() {
        return client(b -> b);
    }

    /** @return a new client with the kit's options changed by {@code change} */
    LockClient client(UnaryOperator<LockOptions.Builder> change) {
        Duration backoffMax = lease().dividedBy(4);
        if (backoffMax.compareTo(Duration.ofMillis(250)) > 0) {
            backoffMax = Duration.ofMillis(250);
        }
        LockOptions options = change.apply(LockOptions.builder()
                        .lease(lease())
                        .backoffMin(Duration.ofMillis(5))
                        .backoffMax(backoffMax))
                .build();
        LockClient c = subject.newClient(options);
        synchronized (opened) {
            opened.add(c);
        }
        return c;
    }

    /** @return a lock name unique to this run and rule */
    String name(String suffix) {
        return "tck-" + run + "-" + rule + "-" + suffix;
    }

    /** @return the message prefix naming the provider and the rule */
    String says(String what) {
        return "[" + subject.name() + "] " + rule + ": " + what;
    }

    void check(boolean condition, String what) {
        if (!condition) {
            Assertions.fail(says(what));
        }
    }

    <T extends Throwable> T expectThrows(Class<T> type, Executable call, String what) {
        return Assertions.assertThrows(type, call, () -> says(what));
    }

    /** Waits until the condition holds, failing with {@code what} after {@code max}. */
    void eventually(Duration max, BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + max.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                Assertions.fail(says(what + " (waited " + max.toMillis() + " ms)"));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /** Waits for a future, failing with {@code what} and the cause if it fails or takes longer than {@code max}. */
    <T> T complete(java.util.concurrent.Future<T> future, Duration max, String what) {
        try {
            return future.get(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            future.cancel(true);
            return Assertions.fail(says(what + " (not done after " + max.toMillis() + " ms)"));
        } catch (java.util.concurrent.ExecutionException e) {
            return Assertions.fail(says(what + " (failed: " + e.getCause() + ")"), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Assertions.fail(says(what + " (interrupted)"), e);
        }
    }

    /** Checks that the condition keeps holding for {@code period}; for rules about time. */
    void throughout(Duration period, BooleanSupplier condition, String what) {
        throughout(period, condition, () -> what);
    }

    /** As {@link #throughout(Duration, BooleanSupplier, String)}, the message made when the condition fails. */
    void throughout(Duration period, BooleanSupplier condition, java.util.function.Supplier<String> what) {
        long end = System.nanoTime() + period.toNanos();
        while (System.nanoTime() - end < 0) {
            if (!condition.getAsBoolean()) {
                Assertions.fail(says(what.get()));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** @return {@code wanted}, or the provider's maximum lease if that is shorter */
    Duration upTo(Duration wanted) {
        Duration max = caps().maximumLease();
        return wanted.compareTo(max) > 0 ? max : wanted;
    }

    /**
     * Checks that another client takes the lock within a few round trips: polled for half of
     * the test lease, well short of the lease a stale attempt or queue entry would hold it for.
     */
    void takeableAtOnce(String name, String after) {
        LockClient other = client();
        long bound = System.nanoTime() + lease().toNanos() / 2;
        while (true) {
            java.util.Optional<io.locksmith.LockHandle> taken = other.lock(name).tryAcquire();
            if (taken.isPresent()) {
                taken.get().close();
                return;
            }
            check(
                    System.nanoTime() - bound < 0,
                    "the lock must be takeable at once " + after + ", within a few round"
                            + " trips, not a lease; it was still held after " + lease().toMillis() / 2 + " ms");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    /** Lets time pass until {@code nanoTime}; only where time itself is the subject of the rule. */
    void passTimeUntil(long nanoTime) {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    /**
     * Runs a fault hook. A hook the provider declared lacking skips the rule, saying it did not
     * run; a hook it neither supplies nor declares lacking fails the rule: a required rule is
     * never passed, or silently skipped, for want of a hook.
     */
    void fault(Fault kind, Runnable hook) {
        requireHook(kind);
        try {
            hook.run();
        } catch (UnsupportedOperationException e) {
            String why = e.getMessage() == null || e.getMessage().startsWith("the provider supplies no hook")
                    ? ""
                    : " (" + e.getMessage() + ")";
            Assertions.fail(
                    says("the provider supplies no hook to " + kind.does() + why
                            + "; supply it, or declare Capabilities.builder().lacks(Fault." + kind + ")"),
                    e);
        }
    }

    /** Skips the rule, saying so, if the provider declared it lacks the hook; for rules that need it later. */
    void requireHook(Fault kind) {
        Assumptions.assumeFalse(
                caps().lacks(kind),
                () -> says(Fault.AS_DECLARED + " it has" + " no hook to " + kind.does() + " (Fault." + kind + ")"));
    }

    Faults faults() {
        return subject.faults();
    }

    /**
     * @return the client's semaphore; skips the rule, saying so, if the provider keeps no
     *     semaphores (the one skip the primitives' rules allow)
     */
    io.locksmith.DistributedSemaphore semaphore(LockClient client, String name, int permits) {
        try {
            return client.semaphore(name, permits);
        } catch (UnsupportedOperationException e) {
            return Assumptions.abort(says("the provider declares no semaphores (LockBackend.holds() lacks PERMIT)"));
        }
    }

    /** @return the client's read-write lock; skips the rule, saying so, if the provider keeps none */
    io.locksmith.DistributedReadWriteLock readWriteLock(LockClient client, String name) {
        try {
            return client.readWriteLock(name);
        } catch (UnsupportedOperationException e) {
            return Assumptions.abort(
                    says("the provider declares no read-write locks (LockBackend.holds() lacks READ or WRITE)"));
        }
    }

    /** @return the client's rate limiter; skips the rule, saying so, if the provider keeps no semaphores */
    io.locksmith.RateLimiter rateLimiter(LockClient client, String name, int permits, Duration per) {
        try {
            return client.rateLimiter(name, permits, per);
        } catch (UnsupportedOperationException e) {
            return Assumptions.abort(says("the provider declares no semaphores, on which rate limiters are built"
                    + " (LockBackend.holds() lacks PERMIT)"));
        }
    }

    /**
     * Checks that the lock is granted to another client within a few round trips: polled for half
     * of the test lease, well short of the two leases a writer's stale waiting mark would last.
     */
    io.locksmith.LockHandle grantedAtOnce(io.locksmith.DistributedLock lock, String after) {
        long bound = System.nanoTime() + lease().toNanos() / 2;
        while (true) {
            java.util.Optional<io.locksmith.LockHandle> taken = lock.tryAcquire();
            if (taken.isPresent()) {
                return taken.get();
            }
            check(
                    System.nanoTime() - bound < 0,
                    after + " it must be granted at once, within a few round trips, not a lease;"
                            + " it was still refused after " + lease().toMillis() / 2 + " ms");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }
}
