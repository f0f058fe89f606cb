package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockException;
import io.locksmith.LockHandle;
import io.locksmith.LockTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An acquisition that ends without a grant — timed out, interrupted, failed, or ended by closing
 * its client — ends promptly and leaves nothing behind: no queue entry, no grant nobody tracks.
 * The next client takes the freed lock within a few round trips, not after a lease.
 */
interface GiveUpRules extends Rules {

    @Test
    default void required_aTimedOutWaitLeavesTheLockTakeable() {
        LockContract c = contract();
        String name = c.name("timedout");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockClient waiter = c.client();
        c.expectThrows(
                LockTimeoutException.class,
                () -> waiter.lock(name).acquire(Duration.ofMillis(300)),
                "acquire on a held lock must time out");
        CompletableFuture<LockHandle> async = waiter.lock(name).acquireAsync(Duration.ofMillis(300));
        c.check(
                failure(c, async, c.margin()) instanceof LockTimeoutException,
                "acquireAsync on a held lock must time out with LockTimeoutException");
        held.close();
        c.takeableAtOnce(name, "after two waits timed out and the holder released it");
    }

    @Test
    default void required_anInterruptedWaitLeavesTheLockTakeable() throws Exception {
        LockContract c = contract();
        String name = c.name("interrupted");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockClient waiter = c.client();
        Thread t = new Thread(() -> {
            try {
                waiter.lock(name).acquire(Duration.ofMinutes(5)).close();
            } catch (RuntimeException expected) {
                // the interrupt rule checks what is thrown; this one checks what is left behind
            }
        });
        t.start();
        c.throughout(Duration.ofMillis(300), t::isAlive, "the waiter must wait while the lock is held");
        t.interrupt();
        t.join(c.margin().toMillis());
        c.check(!t.isAlive(), "an interrupted acquire must return");
        held.close();
        c.takeableAtOnce(name, "after an interrupted wait and the holder's release");
    }

    @Test
    default void required_aWaitThatFailedOnABackendErrorLeavesTheLockTakeable() {
        LockContract c = contract();
        String name = c.name("failed");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockClient waiter = c.client();
        CompletableFuture<LockHandle> waiting =
                waiter.lock(name).acquireAsync(Duration.ofMillis(300).plus(c.lease()));
        c.throughout(Duration.ofMillis(300), () -> !waiting.isDone(), "the waiter must wait while the lock is held");
        c.fault(Fault.CUT_CONNECTION, () -> c.faults().cutConnection(waiter));
        try {
            Throwable failure = failure(c, waiting, c.lease().plus(c.margin()));
            c.check(
                    failure instanceof LockException,
                    "a wait that ended while the backend was unreachable must fail"
                            + " with a LockException, failed with " + failure);
        } finally {
            c.faults().restoreConnection(waiter);
        }
        held.close();
        c.takeableAtOnce(name, "after a wait failed on a cut connection and the holder's release");
    }

    @Test
    default void required_anAttemptGivenUpWithItsReplyOutstandingLeavesTheLockTakeable() {
        LockContract c = contract();
        String name = c.name("phantom");
        LockClient waiter = c.client();
        Duration delay = c.lease();
        c.fault(Fault.DELAY_REPLIES, () -> c.faults().delayReplies(waiter, delay));
        try {
            // the attempt reaches the server and may take the lock, but its answer comes after the wait
            CompletableFuture<LockHandle> waiting = waiter.lock(name).acquireAsync(delay.dividedBy(10));
            Throwable failure = failure(c, waiting, delay.plus(c.margin()));
            c.check(
                    failure instanceof LockException,
                    "a wait that ended before its attempt's reply must fail with a" + " LockException, failed with "
                            + failure);
            c.takeableAtOnce(
                    name,
                    "after a wait gave up on an attempt whose reply was outstanding (replies delayed by "
                            + delay.toMillis() + " ms): the attempt's outcome is unknown and must be cleaned up");
        } finally {
            c.faults().delayReplies(waiter, Duration.ZERO);
        }
    }

    @Test
    default void required_closingAClientEndsItsWaitsPromptly() throws Exception {
        LockContract c = contract();
        String name = c.name("closed");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockClient doomed = c.client();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread blocking = new Thread(() -> {
            try {
                doomed.lock(name).acquire(Duration.ofMinutes(5)).close();
            } catch (RuntimeException e) {
                thrown.set(e);
            }
        });
        blocking.start();
        CompletableFuture<LockHandle> async = doomed.lock(name).acquireAsync(Duration.ofMinutes(5));
        c.throughout(
                Duration.ofMillis(300),
                () -> blocking.isAlive() && !async.isDone(),
                "both waiters must wait while the lock is held");
        doomed.close();
        blocking.join(c.margin().toMillis());
        c.check(
                !blocking.isAlive(),
                "acquire(5 min) must end within " + c.margin().toMillis() + " ms when its client is closed");
        c.check(
                thrown.get() != null
                        && String.valueOf(thrown.get().getMessage()).contains(name),
                "acquire() ended by closing its client must throw an exception naming the lock, threw " + thrown.get());
        Throwable failure = failure(c, async, c.margin());
        c.check(
                String.valueOf(failure.getMessage()).contains(name),
                "acquireAsync() ended by closing its client must fail with an exception naming the lock, failed with "
                        + failure);
        c.check(held.isHeld(), "closing a waiting client must leave the holder's lock");
        held.close();
        c.takeableAtOnce(name, "after the waiters' client was closed and the holder released it");
    }

    /**
     * @return how the future failed, within {@code max}; fails the rule if it completed normally or
     *     not at all. Watches the future rather than blocking on it: a blocked caller may be woken
     *     only after the future's own stages ran, and the rule times what follows from the failure.
     */
    private static Throwable failure(LockContract c, CompletableFuture<LockHandle> f, Duration max) {
        c.eventually(max, f::isDone, "the wait did not end");
        try {
            LockHandle h = f.get(0, TimeUnit.MILLISECONDS);
            h.close();
            return org.junit.jupiter.api.Assertions.fail(c.says("the wait was expected to fail, but was granted"));
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            f.cancel(false);
            return org.junit.jupiter.api.Assertions.fail(
                    c.says("the wait did not end within " + max.toMillis() + " ms"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return org.junit.jupiter.api.Assertions.fail(c.says("interrupted"), e);
        }
    }
}
