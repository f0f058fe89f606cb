package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockNotHeldException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A lock that cannot be kept is reported lost: isHeld() turns false and callbacks run once. */
interface LossRules extends Rules {

    @Test
    default void required_stateRemovedBehindTheHolderIsReportedLostOnce() {
        LockContract c = contract();
        String name = c.name("removed");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        AtomicInteger callbacks = new AtomicInteger();
        held.onLost(callbacks::incrementAndGet);
        c.fault(Fault.REMOVE_LOCK_STATE, () -> c.faults().removeLockState(name));
        c.eventually(
                c.lease().plus(c.margin()),
                () -> !held.isHeld(),
                "a holder whose lock was removed must see isHeld() false");
        c.eventually(c.margin(), () -> callbacks.get() >= 1, "the loss callback must run");
        LockHandle next = c.client().lock(name).acquire(c.margin());
        c.throughout(c.lease(), () -> callbacks.get() == 1, "the loss callback must run exactly once");
        c.expectThrows(
                LockNotHeldException.class, () -> held.extend(c.lease()), "extend() of a lost handle must throw");
        held.close();
        c.check(next.isHeld(), "closing the lost handle must leave the next owner's lock");
        next.close();
    }

    @Test
    default void required_connectionCutPastTheLeaseLosesTheLock() {
        LockContract c = contract();
        String name = c.name("cut");
        LockClient client = c.client();
        LockHandle held = client.lock(name).acquire(Duration.ZERO);
        AtomicInteger callbacks = new AtomicInteger();
        held.onLost(callbacks::incrementAndGet);
        c.fault(Fault.CUT_CONNECTION, () -> c.faults().cutConnection(client));
        try {
            c.eventually(
                    c.lease().plus(c.margin()),
                    () -> callbacks.get() == 1,
                    "a holder cut off past its lease must be told it lost the lock");
            c.check(!held.isHeld(), "a holder cut off past its lease must not be held");
        } finally {
            c.faults().restoreConnection(client);
        }
        LockHandle next = c.client().lock(name).acquire(c.lease().plus(c.margin()));
        c.check(next.fencingToken() > held.fencingToken(), "the next grant must carry a greater token");
        next.close();
    }

    @Test
    default void required_aStalledHolderIsNotHeldOnceItsLocalDeadlinePasses() {
        LockContract c = contract();
        String name = c.name("stalled");
        LockClient client = c.client();
        LockHandle held = client.lock(name).acquire(Duration.ZERO);
        long granted = System.nanoTime(); // the deadline counts from before this: it can only be earlier
        c.fault(Fault.CUT_CONNECTION, () -> c.faults().cutConnection(client));
        try {
            c.passTimeUntil(granted + c.lease().toNanos() + 1_000_000);
            c.check(
                    !held.isHeld(),
                    "isHeld() must be false as soon as the lease's deadline has passed on the"
                            + " holder's monotonic clock, without waiting for the backend");
        } finally {
            c.faults().restoreConnection(client);
        }
    }

    @Test
    default void required_lossCallbacksRunOnTheCoresWorkersAndMayBlock() {
        LockContract c = contract();
        String name = c.name("callback");
        LockClient client = c.client();
        LockHandle held = client.lock(name).acquire(Duration.ZERO);
        CompletableFuture<Thread> ran = new CompletableFuture<>();
        CountDownLatch unblock = new CountDownLatch(1);
        held.onLost(() -> {
            ran.complete(Thread.currentThread());
            try {
                unblock.await(c.margin().multipliedBy(4).toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        c.fault(Fault.REMOVE_LOCK_STATE, () -> c.faults().removeLockState(name));
        try {
            Thread thread = c.complete(ran, c.lease().plus(c.margin()).multipliedBy(2), "the loss callback must run");
            c.check(
                    thread.getName().startsWith("locksmith-"),
                    "a loss callback must run on one of the core's threads,"
                            + " never the backend's I/O threads; it ran on " + thread.getName());
            // a callback that blocks an I/O thread would stall this client's every call
            CompletableFuture<Boolean> works = CompletableFuture.supplyAsync(() -> {
                try (LockHandle other = client.lock(c.name("other")).acquire(c.margin())) {
                    return other.isHeld();
                }
            });
            c.check(
                    c.complete(
                            works,
                            c.margin().multipliedBy(2),
                            "while a loss callback blocks, the client must still" + " take and release another lock"),
                    "the client must hold the other lock while a loss callback blocks");
        } finally {
            unblock.countDown();
        }
        held.close();
    }

    @Test
    default void required_leasesIgnoreClientWallClocks() {
        LockContract c = contract();
        String name = c.name("clock");
        try (LockHandle held = c.client().lock(name).acquire(Duration.ZERO)) {
            LockClient ahead = c.client();
            c.fault(Fault.SKEW_WALL_CLOCK, () -> c.faults().skewWallClock(ahead, Duration.ofHours(2)));
            c.check(
                    ahead.lock(name).tryAcquire().isEmpty(),
                    "a client whose wall clock runs two hours ahead must not see a live lease as expired");
            c.check(held.isHeld(), "the holder must still hold the lock");
        }
    }
}
