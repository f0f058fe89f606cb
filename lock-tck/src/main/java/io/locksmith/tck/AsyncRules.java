package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockInterruptedException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Asynchronous acquisition, cancellation and interrupts leak nothing. */
interface AsyncRules extends Rules {

    @Test
    default void required_acquireAsyncCompletes() throws Exception {
        LockContract c = contract();
        LockHandle h = c.complete(
                c.client().lock(c.name("async")).acquireAsync(c.margin()),
                Duration.ofSeconds(30),
                "acquireAsync of a free lock must complete");
        c.check(h.isHeld(), "acquireAsync of a free lock must complete with a held handle");
        h.close();
    }

    @Test
    default void required_cancellingAcquireAsyncStopsTheWait() throws Exception {
        LockContract c = contract();
        String name = c.name("cancel");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockClient waiterClient = c.client();
        CompletableFuture<LockHandle> waiting = waiterClient.lock(name).acquireAsync(Duration.ofMinutes(5));
        c.throughout(Duration.ofMillis(200), () -> !waiting.isDone(), "the waiter must wait while the lock is held");
        c.check(waiting.cancel(false), "the wait must be cancellable");
        held.close();
        LockHandle next = c.client().lock(name).acquire(c.margin());
        c.check(next.isHeld(), "a cancelled waiter must not take the lock");
        next.close();
    }

    @Test
    default void required_aGrantThatRacesACancellationIsReleased() throws Exception {
        LockContract c = contract();
        String name = c.name("race");
        LockClient racer = c.client();
        LockClient checker = c.client();
        for (int i = 0; i < 20; i++) {
            LockHandle held = c.client().lock(name).acquire(c.margin());
            CompletableFuture<LockHandle> waiting = racer.lock(name).acquireAsync(Duration.ofMinutes(1));
            held.close();
            waiting.cancel(false); // at the same instant as the release: the grant may or may not have happened
            LockHandle h = waiting.isCancelled() ? null : waiting.getNow(null);
            if (h != null) {
                h.close();
            }
            java.util.Optional<LockHandle> free =
                    checker.lock(name).tryAcquire(c.lease().plus(c.margin()));
            c.check(free.isPresent(), "round " + i + ": a grant that raced a cancellation must be released");
            free.get().close();
        }
    }

    @Test
    default void required_anInterruptStopsAWaitingAcquire() throws Exception {
        LockContract c = contract();
        String name = c.name("interrupt");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockClient waiterClient = c.client();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            try {
                waiterClient.lock(name).acquire(Duration.ofMinutes(5)).close();
            } catch (RuntimeException e) {
                thrown.set(e);
                flagKept.set(Thread.currentThread().isInterrupted());
            }
        });
        waiter.start();
        c.throughout(Duration.ofMillis(200), waiter::isAlive, "the waiter must wait while the lock is held");
        waiter.interrupt();
        waiter.join(c.margin().toMillis());
        c.check(!waiter.isAlive(), "an interrupted acquire must return");
        c.check(
                thrown.get() instanceof LockInterruptedException,
                "an interrupted acquire must throw LockInterruptedException, threw " + thrown.get());
        c.check(flagKept.get(), "the interrupt flag must stay set");
        held.close();
        LockHandle next = c.client().lock(name).acquire(c.margin());
        c.check(next.isHeld(), "an interrupted waiter must not take the lock");
        next.close();
    }
}
