package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Automatic renewal keeps locks held, many at once, without a thread per lock. */
interface RenewalRules extends Rules {

    int MANY = 1_000;

    /**
     * The shortest lease the many-locks rule uses. A tick that renews a thousand locks takes far
     * longer on a saturated machine than one that renews a single lock; below this lease the rule
     * would measure the machine's speed instead of the provider's batching.
     */
    Duration MANY_LEASE = Duration.ofSeconds(5);

    @Test
    default void required_renewalKeepsALockHeldPastThreeLeases() {
        LockContract c = contract();
        String name = c.name("renewed");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockClient other = c.client();
        c.throughout(c.lease().multipliedBy(3).plusMillis(200), held::isHeld, "a renewed handle must stay held");
        c.check(other.lock(name).tryAcquire().isEmpty(), "a renewed lock must stay held on the server past 3 leases");
        held.close();
    }

    @Test
    default void required_aThousandLocksStayHeldByOneClient() {
        LockContract c = contract();
        LockClient client = c.client();
        int threadsBefore = Thread.activeCount();
        Duration lease = c.lease().compareTo(MANY_LEASE) > 0 ? c.lease() : MANY_LEASE;
        if (lease.compareTo(c.caps().maximumLease()) > 0) {
            lease = c.caps().maximumLease(); // a session-bound lease (ZooKeeper's) cannot be longer
        }
        List<LockHandle> held = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            held.add(client.lock(c.name("many-" + i)).withLease(lease).acquire(c.margin()));
        }
        // every lock has outlived its first lease only through renewal
        long until = System.nanoTime() + lease.multipliedBy(3).dividedBy(2).toNanos();
        c.passTimeUntil(until);
        long notHeld = held.stream().filter(h -> !h.isHeld()).count();
        c.check(notHeld == 0, notHeld + " of " + MANY + " locks were not held after one and a half leases");
        int threadsAdded = Thread.activeCount() - threadsBefore;
        // a thread per lock adds a thousand; the bound leaves room for whatever else the JVM runs
        c.check(
                threadsAdded < MANY / 4,
                "holding " + MANY + " locks started " + threadsAdded + " threads; renewal needs no thread per lock");
        LockClient other = c.client();
        for (int i = 0; i < MANY; i += 97) {
            c.check(
                    other.lock(c.name("many-" + i)).tryAcquire().isEmpty(),
                    "lock many-" + i + " must stay held on the server");
        }
        held.forEach(LockHandle::close);
    }

    @Test
    default void required_extendRenewsByHand() {
        LockContract c = contract();
        String name = c.name("extended");
        LockHandle held = c.client().lock(name).withAutoRenew(false).acquire(Duration.ZERO);
        long until = System.nanoTime() + c.lease().multipliedBy(3).toNanos();
        while (System.nanoTime() < until) {
            held.extend(c.lease());
            c.check(held.isHeld(), "a handle must be held after extend()");
            c.passTimeUntil(System.nanoTime() + c.lease().dividedBy(3).toNanos());
        }
        c.check(c.client().lock(name).tryAcquire().isEmpty(), "an extended lock must stay held on the server");
        held.close();
    }
}
