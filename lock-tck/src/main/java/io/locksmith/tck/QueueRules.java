package io.locksmith.tck;

import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** A provider that queues waiters natively grants a waiter only on its own, live queue entry. */
interface QueueRules extends Rules {

    @Test
    default void optional_aWaiterWhoseQueueEntryWasRemovedIsNeverGrantedBesideAnotherHolder() {
        LockContract c = contract();
        Assumptions.assumeTrue(c.caps().fifo(), c.says("skipped: the provider does not queue waiters"));
        String name = c.name("unqueued");
        LockHandle first = c.client().lock(name).acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiting = c.client()
                .lock(name)
                .acquireAsync(Duration.ofMinutes(2).plus(c.lease().multipliedBy(6)));
        c.throughout(Duration.ofMillis(300), () -> !waiting.isDone(), "the waiter must wait while the lock is held");
        c.fault(Fault.REMOVE_QUEUE_ENTRIES, () -> c.faults().removeQueueEntries(name));
        first.close();
        // the waiter may queue again and win; what must never happen is a grant beside another holder
        Optional<LockHandle> third = c.client().lock(name).tryAcquire(c.lease().plus(c.margin()));
        c.throughout(
                c.lease().plus(c.margin()),
                () -> !(granted(waiting) && third.isPresent() && third.get().isHeld()),
                "a waiter whose queue entry was removed was granted while another client held the lock");
        third.ifPresent(LockHandle::close);
        LockHandle next = c.complete(
                waiting,
                c.lease().plus(c.margin()).multipliedBy(2),
                "a waiter whose queue entry was removed must still be granted once the lock is free, while its wait lasts");
        c.check(next.isHeld(), "the waiter must hold the lock it was granted");
        next.close();
    }

    private static boolean granted(CompletableFuture<LockHandle> f) {
        return f.isDone()
                && !f.isCompletedExceptionally()
                && !f.isCancelled()
                && f.join().isHeld();
    }
}
