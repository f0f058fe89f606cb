package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Releasing: idempotent, never another owner's lock, and on client close or crash. */
interface ReleaseRules extends Rules {

    @Test
    default void required_releaseIsIdempotent() {
        LockContract c = contract();
        String name = c.name("twice");
        LockHandle h = c.client().lock(name).acquire(Duration.ZERO);
        h.close();
        c.check(!h.isHeld(), "a closed handle must not be held");
        LockHandle next = c.client().lock(name).acquire(c.margin());
        h.close();
        c.check(next.isHeld(), "closing a handle twice must not release the next owner's lock");
        c.check(c.client().lock(name).tryAcquire().isEmpty(), "the next owner's lock must still be held on the server");
        next.close();
    }

    @Test
    default void required_releaseAfterExpiryLeavesTheNextOwnersLock() {
        LockContract c = contract();
        String name = c.name("stale");
        LockHandle stale = c.client().lock(name).withAutoRenew(false).acquire(Duration.ZERO);
        // told first that its lease ran out, so that its close() below sends a release; told only
        // later, it might hear of the next owner first (its lock taken) and rightly send none
        c.complete(
                stale.whenLost().toCompletableFuture(),
                c.lease().plus(c.margin()),
                "a handle that is not renewed must be told it was lost once its lease runs out");
        LockHandle next =
                c.client().lock(name).acquire(c.lease().plus(c.margin()).multipliedBy(2));
        c.check(!stale.isHeld(), "a handle whose lease ran out must not be held");
        stale.close();
        c.check(next.isHeld(), "the next owner must still hold the lock after the stale holder's release");
        c.check(
                c.client().lock(name).tryAcquire().isEmpty(),
                "a release after expiry must not remove the next owner's lock on the server");
        next.close();
    }

    @Test
    default void required_closingAClientReleasesItsLocks() {
        LockContract c = contract();
        LockClient client = c.client();
        LockHandle a = client.lock(c.name("a")).acquire(Duration.ZERO);
        LockHandle b = client.lock(c.name("b")).acquire(Duration.ZERO);
        client.close();
        c.check(!a.isHeld() && !b.isHeld(), "handles of a closed client must not be held");
        LockClient other = c.client();
        c.check(
                other.lock(c.name("a")).tryAcquire().isPresent()
                        && other.lock(c.name("b")).tryAcquire().isPresent(),
                "closing a client must release its locks at once, not when their leases run out");
    }

    @Test
    default void required_aCrashedHoldersLockIsFreeWithinItsLeasePlusAMargin() {
        LockContract c = contract();
        String name = c.name("crash");
        LockClient doomed = c.client();
        LockHandle held = doomed.lock(name).acquire(Duration.ZERO);
        long crashedAt = System.nanoTime();
        c.fault(Fault.CRASH, () -> c.faults().crash(doomed));
        LockHandle next = c.client().lock(name).acquire(c.lease().plus(c.margin()));
        long tookMillis = (System.nanoTime() - crashedAt) / 1_000_000;
        c.check(next.fencingToken() > held.fencingToken(), "the next grant must carry a greater token");
        c.check(
                tookMillis <= c.lease().plus(c.margin()).toMillis(),
                "the crashed holder's lock was free only after " + tookMillis + " ms");
        next.close();
    }
}
