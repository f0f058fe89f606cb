package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Taking a lock: at once, with a wait that times out, and with a wait that ends in a grant. */
interface AcquisitionRules extends Rules {

    @Test
    default void required_tryAcquireTakesAFreeLock() {
        LockContract c = contract();
        Optional<LockHandle> held = c.client().lock(c.name("free")).tryAcquire();
        c.check(held.isPresent(), "tryAcquire() of a free lock must grant it");
        c.check(held.get().isHeld(), "a new handle must be held");
        c.check(held.get().name().equals(c.name("free")), "the handle must carry the lock's name");
        held.get().close();
    }

    @Test
    default void required_tryAcquireOnAHeldLockReturnsEmptyAtOnce() {
        LockContract c = contract();
        String name = c.name("held");
        try (LockHandle held = c.client().lock(name).tryAcquire().orElseThrow()) {
            long start = System.nanoTime();
            Optional<LockHandle> second = c.client().lock(name).tryAcquire();
            long took = System.nanoTime() - start;
            c.check(second.isEmpty(), "tryAcquire() of a lock held by another client must return empty");
            c.check(took < c.margin().toNanos(), "tryAcquire() must not wait; took " + took / 1_000_000 + " ms");
            Optional<LockHandle> same = c.client().lock(name).tryAcquire();
            c.check(same.isEmpty(), "a held lock stays held against every other client");
            c.check(held.isHeld(), "the holder must still hold the lock");
        }
    }

    @Test
    default void required_locksAreNotReentrant() {
        LockContract c = contract();
        LockClient client = c.client();
        String name = c.name("reentry");
        try (LockHandle held = client.lock(name).acquire(Duration.ZERO)) {
            c.check(
                    client.lock(name).tryAcquire().isEmpty(),
                    "a second acquire of a held lock by the same client and thread must not be granted");
            c.check(held.isHeld(), "the first handle must still hold the lock");
        }
    }

    @Test
    default void required_acquireTimesOutWithinABound() {
        LockContract c = contract();
        String name = c.name("timeout");
        Duration wait = Duration.ofMillis(400);
        try (LockHandle held = c.client().lock(name).acquire(Duration.ZERO)) {
            long start = System.nanoTime();
            LockTimeoutException e = c.expectThrows(
                    LockTimeoutException.class,
                    () -> c.client().lock(name).acquire(wait),
                    "acquire on a held lock must time out");
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            c.check(tookMillis >= wait.toMillis() - 20, "acquire gave up early, after " + tookMillis + " ms");
            c.check(tookMillis <= wait.plus(c.margin()).toMillis(), "acquire hung for " + tookMillis + " ms");
            c.check(e.getMessage().contains(name), "the timeout must name the lock: " + e.getMessage());
            c.check(
                    c.client().lock(name).tryAcquire(Duration.ofMillis(50)).isEmpty(),
                    "tryAcquire(wait) must return empty when the lock stays held");
            c.check(held.isHeld(), "the holder must still hold the lock");
        }
    }

    @Test
    default void required_acquireSucceedsWhenTheLockIsFreed() throws Exception {
        LockContract c = contract();
        String name = c.name("freed");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockClient waiterClient = c.client();
        CompletableFuture<LockHandle> waiter = CompletableFuture.supplyAsync(
                () -> waiterClient.lock(name).acquire(c.margin().multipliedBy(2)));
        c.throughout(Duration.ofMillis(200), () -> !waiter.isDone(), "the waiter must wait while the lock is held");
        held.close();
        LockHandle next = c.complete(waiter, c.margin().multipliedBy(3), "a waiter must get the lock once it is freed");
        c.check(next.isHeld(), "the waiter must hold the lock after it was freed");
        next.close();
    }

    @Test
    default void optional_waiterIsWokenPromptlyOnRelease() throws Exception {
        LockContract c = contract();
        Assumptions.assumeTrue(c.caps().nativeWakeUp(), c.says("skipped: the provider has no native wake-up"));
        String name = c.name("wake");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockClient patient = c.client(b -> b.backoffMin(Duration.ofSeconds(60)).backoffMax(Duration.ofSeconds(60)));
        CompletableFuture<LockHandle> waiter = patient.lock(name).acquireAsync(Duration.ofMinutes(2));
        c.throughout(Duration.ofMillis(300), () -> !waiter.isDone(), "the waiter must wait while the lock is held");
        long released = System.nanoTime();
        held.close();
        LockHandle next = c.complete(waiter, Duration.ofSeconds(30), "the waiter must get the lock once it is freed");
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
        c.check(
                tookMillis < 5_000,
                "with a 60 s back-off, the waiter must be woken by the release signal;" + " it took " + tookMillis
                        + " ms");
        next.close();
    }

    @Test
    default void optional_waitersAreGrantedInArrivalOrder() throws Exception {
        LockContract c = contract();
        Assumptions.assumeTrue(c.caps().fifo(), c.says("skipped: the provider does not queue waiters"));
        String name = c.name("fifo");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        List<Integer> order = java.util.Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> waiters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int n = i;
            LockClient client = c.client();
            waiters.add(client.lock(name).acquireAsync(Duration.ofMinutes(1)).thenAccept(h -> {
                order.add(n);
                h.close();
            }));
            // arrival order is the subject: on a saturated machine an enqueue can take a few hundred ms
            c.passTimeUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500));
        }
        held.close();
        c.complete(
                CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)),
                Duration.ofMinutes(1),
                "every waiter must get the lock in turn");
        c.check(order.equals(List.of(0, 1, 2, 3)), "waiters must be granted in arrival order, were " + order);
    }
}
