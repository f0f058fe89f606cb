package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * {@code extend} to another lease length: the lock frees at the new deadline, never earlier on the
 * server than the handle believes. A provider whose server cannot change a lease's length is
 * refused by the core ({@link UnsupportedOperationException}, as {@link LockHandle#extend} says);
 * the lock then keeps its old lease.
 */
interface ExtendRules extends Rules {

    /** Servers count leases in whole milliseconds on their own clock: a lease may end this much early. */
    long GRANULARITY_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    @Test
    default void required_extendToALongerLeaseKeepsTheLockUntilTheNewDeadline() {
        LockContract c = contract();
        String name = c.name("longer");
        Duration longer = c.upTo(c.lease().multipliedBy(3));
        Duration base = longer.dividedBy(3); // the test lease, unless the provider's maximum is shorter
        LockHandle held =
                c.client().lock(name).withLease(base).withAutoRenew(false).acquire(Duration.ZERO);
        long sent = System.nanoTime(); // the new deadline counts from after this
        if (!extendOrRefuse(c, held, longer)) {
            return;
        }
        LockClient other = c.client();
        // until the new deadline the server must refuse everyone else, and the handle must say held
        long deadline = sent + longer.toNanos();
        Optional<LockHandle> taken = Optional.empty();
        long at = 0;
        while (taken.isEmpty()) {
            taken = other.lock(name).tryAcquire();
            at = System.nanoTime();
            if (taken.isPresent()) {
                c.check(
                        at - deadline >= -GRANULARITY_NANOS,
                        "after extend(" + longer.toMillis() + " ms) another client took the lock "
                                + (at - sent) / 1_000_000 + " ms after the extend was sent, before the new deadline"
                                + (held.isHeld() ? ", while the handle still believed it held" : ""));
            } else if (at - deadline < 0) {
                c.check(held.isHeld(), "a handle extended to " + longer.toMillis() + " ms must stay held until then");
                LockSupport.parkNanos(poll(c));
            } else {
                taken = Optional.of(other.lock(name).acquire(c.lease().plus(c.margin())));
                at = System.nanoTime();
            }
        }
        // the server may end the lease up to its granularity early; by then the handle's own deadline passed
        c.passTimeUntil(at + GRANULARITY_NANOS);
        c.check(!held.isHeld(), "the extended handle must not be held once the next owner has the lock");
        taken.get().close();
        held.close();
    }

    @Test
    default void required_extendToAShorterLeaseFreesTheLockAtTheNewDeadline() {
        LockContract c = contract();
        String name = c.name("shorter");
        Duration longer = c.upTo(c.lease().multipliedBy(2).plus(c.margin().multipliedBy(2)));
        Duration shorter = longer.dividedBy(2).compareTo(c.lease()) < 0 ? longer.dividedBy(2) : c.lease();
        LockHandle held =
                c.client().lock(name).withLease(longer).withAutoRenew(false).acquire(Duration.ZERO);
        long sent = System.nanoTime();
        if (!extendOrRefuse(c, held, shorter)) {
            return;
        }
        LockClient other = c.client();
        long bound = sent + shorter.plus(c.margin()).toNanos();
        while (true) {
            Optional<LockHandle> taken = other.lock(name).tryAcquire();
            if (taken.isPresent()) {
                c.check(
                        held.remainingLease().toNanos() <= GRANULARITY_NANOS,
                        "after extend(" + shorter.toMillis()
                                + " ms) the lock was granted to another client while the handle still believed it held for "
                                + held.remainingLease().toMillis()
                                + " ms: freed earlier on the server than the handle believes");
                taken.get().close();
                break;
            }
            c.check(
                    System.nanoTime() - bound < 0,
                    "a lock extended to a shorter lease of " + shorter.toMillis()
                            + " ms (from " + longer.toMillis()
                            + " ms) must be free by the new deadline plus a margin, but was"
                            + " still held " + (System.nanoTime() - sent) / 1_000_000
                            + " ms after the extend was sent");
            LockSupport.parkNanos(poll(c));
        }
        held.close();
    }

    /** @return whether the extend was made; false if the provider refused another lease length, as it may */
    private static boolean extendOrRefuse(LockContract c, LockHandle held, Duration lease) {
        try {
            held.extend(lease);
        } catch (UnsupportedOperationException refused) {
            c.check(
                    held.isHeld(),
                    "a refused extend(" + lease.toMillis() + " ms) must leave the lock held for its old lease");
            return false;
        }
        c.check(held.isHeld(), "a handle must be held after extend(" + lease.toMillis() + " ms)");
        return true;
    }

    /** @return how long to wait between two looks at the server: often, but not a busy loop */
    private static long poll(LockContract c) {
        long nanos = c.lease().toNanos() / 50;
        return Math.max(TimeUnit.MILLISECONDS.toNanos(10), Math.min(nanos, TimeUnit.MILLISECONDS.toNanos(250)));
    }
}
