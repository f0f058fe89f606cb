package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Outages shorter than what they threaten: a cut shorter than the lease loses nothing, a wait
 * outlives an unreachable backend, a restarted server leaves every handle telling the truth,
 * and a slow reply never makes a holder believe in a longer lease than the server's.
 */
interface OutageRules extends Rules {

    @Test
    default void required_aConnectionCutShorterThanTheLeaseLosesNothing() {
        LockContract c = contract();
        String name = c.name("blip");
        // renewing every sixth of the lease, a cut of a third fails at least one renewal and leaves
        // half the lease for one to get through after it
        Duration lease = c.upTo(c.lease().multipliedBy(3));
        Duration cut = lease.dividedBy(3);
        LockClient client = c.client(b -> b.renewInterval(lease.dividedBy(6)));
        LockHandle held = client.lock(name).withLease(lease).acquire(Duration.ZERO);
        AtomicInteger callbacks = new AtomicInteger();
        held.onLost(callbacks::incrementAndGet);
        c.fault(Fault.CUT_CONNECTION, () -> c.faults().cutConnection(client));
        try {
            c.throughout(
                    cut,
                    held::isHeld,
                    "a holder must stay held while its connection is cut for " + cut.toMillis() + " ms of its "
                            + lease.toMillis() + " ms lease");
        } finally {
            c.faults().restoreConnection(client);
        }
        c.throughout(
                lease,
                () -> held.isHeld() && callbacks.get() == 0,
                "a holder whose connection was cut for " + cut.toMillis() + " ms of its " + lease.toMillis()
                        + " ms lease must keep the lock, no loss reported");
        c.check(
                c.client().lock(name).tryAcquire().isEmpty(),
                "a lock whose holder's connection was cut for less than the lease must stay held on the server");
        held.close();
    }

    @Test
    default void required_aWaitRetriesAnUnreachableBackendUntilTheWaitEnds() {
        LockContract c = contract();
        String name = c.name("unreachable");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockClient waiterClient = c.client();
        Duration cut = c.lease();
        Duration wait = cut.plus(c.margin().multipliedBy(3));
        c.fault(Fault.CUT_CONNECTION, () -> c.faults().cutConnection(waiterClient));
        CompletableFuture<LockHandle> waiting;
        try {
            waiting = waiterClient.lock(name).acquireAsync(wait);
            c.throughout(
                    cut,
                    () -> !waiting.isDone(),
                    () -> "a wait of " + wait.toMillis() + " ms must keep trying"
                            + " while the backend is unreachable; it ended after less than " + cut.toMillis() + " ms: "
                            + outcome(waiting));
            held.close();
        } finally {
            c.faults().restoreConnection(waiterClient);
        }
        LockHandle next = c.complete(
                waiting,
                wait.plus(c.margin()),
                "a wait whose backend was unreachable for part of it must be granted once it is back and the lock free");
        c.check(next.isHeld(), "the waiter must hold the lock it was granted after the outage");
        next.close();
    }

    @Test
    default void required_aServerRestartKeepsOrReportsLocksAndLetsWaitersProceed() {
        LockContract c = contract();
        c.requireHook(Fault.RESTART_SERVER);
        String name = c.name("restart");
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        AtomicInteger callbacks = new AtomicInteger();
        held.onLost(callbacks::incrementAndGet);
        CompletableFuture<LockHandle> waiting = c.client()
                .lock(name)
                .acquireAsync(Duration.ofMinutes(2).plus(c.lease().multipliedBy(6)));
        c.throughout(Duration.ofMillis(200), () -> !waiting.isDone(), "the waiter must wait while the lock is held");
        c.fault(Fault.RESTART_SERVER, () -> c.faults().restartServer());
        // a lease after the restart, a handle still held must rest on a renewal the restarted server confirmed
        c.passTimeUntil(System.nanoTime() + c.lease().plus(c.margin()).toNanos());
        if (held.isHeld()) {
            c.check(
                    !granted(waiting),
                    "a holder that kept its lock across a restart must be the only holder;"
                            + " the waiter was granted too");
            c.check(
                    c.client().lock(name).tryAcquire().isEmpty(),
                    "a holder that says it kept its lock across a restart must still hold it on the server");
        } else {
            c.eventually(
                    c.margin(),
                    () -> callbacks.get() == 1,
                    "a holder that did not keep its lock across a restart must be told it lost it");
        }
        held.close();
        LockHandle next = c.complete(
                waiting,
                c.lease().plus(c.margin()).multipliedBy(2),
                "a waiter must proceed after a restart once the lock is free");
        c.check(next.isHeld(), "the waiter must hold the lock it was granted after the restart");
        if (c.caps().fencingSurvivesStateRemoval() && c.caps().fencingSurvivesRestart()) {
            c.check(
                    next.fencingToken() > held.fencingToken(),
                    "the grant after a restart carried token " + next.fencingToken() + ", not greater than the earlier "
                            + held.fencingToken());
        }
        next.close();
        LockHandle after = c.client().lock(name).acquire(c.margin());
        c.check(
                after.fencingToken() > next.fencingToken(),
                "tokens must keep increasing after a restart: " + after.fencingToken() + " after "
                        + next.fencingToken());
        after.close();
    }

    @Test
    default void required_aHoldersDeadlineCountsFromTheRequestsSendNotItsReply() {
        LockContract c = contract();
        LockClient slow = c.client();
        // a quarter of the lease, at most a second: enough to tell the send from the reply, short
        // of what a client with heartbeats takes for a dead connection (ZooKeeper: a third of its
        // session) and of an operation timeout (the kit's Azure client: 2 s)
        Duration quarter = c.lease().dividedBy(4);
        Duration delay = quarter.compareTo(Duration.ofSeconds(1)) > 0 ? Duration.ofSeconds(1) : quarter;
        // the names are used once before: a backend's first use of a name may cost it round trips
        // of its own (ZooKeeper creates the lock's parent node), each delayed, which is not the subject
        String free = c.name("free");
        c.client().lock(free).acquire(Duration.ZERO).close();
        c.fault(Fault.DELAY_REPLIES, () -> c.faults().delayReplies(slow, delay));
        try {
            // a free lock, taken in one attempt
            LockHandle first = slow.lock(free).withAutoRenew(false).acquire(Duration.ZERO);
            deadlineCountsFromTheSend(c, first, System.nanoTime(), delay, "a grant of a free lock");
            first.close();

            // a lock granted to a waiter: queued where the provider queues
            String name = c.name("waited");
            LockHandle holder = c.client().lock(name).acquire(Duration.ZERO);
            CompletableFuture<LockHandle> waiting =
                    slow.lock(name).withAutoRenew(false).acquireAsync(c.margin().multipliedBy(4));
            c.throughout(
                    Duration.ofMillis(200), () -> !waiting.isDone(), "the waiter must wait while the lock is held");
            holder.close();
            LockHandle second = c.complete(waiting, c.margin().multipliedBy(4), "the waiter must get the freed lock");
            deadlineCountsFromTheSend(c, second, System.nanoTime(), delay, "a grant to a waiter");
            second.close();
        } finally {
            c.faults().delayReplies(slow, Duration.ZERO);
        }
    }

    /**
     * The grant's reply was seen at {@code seenAt} and was held back by {@code delay}: whatever
     * request confirmed the lease was sent before {@code seenAt - delay}, so the lease ends on the
     * server by then plus the lease, and the handle must not be held past it.
     */
    private static void deadlineCountsFromTheSend(
            LockContract c, LockHandle h, long seenAt, Duration delay, String what) {
        c.passTimeUntil(seenAt - delay.toNanos() + c.lease().toNanos() + TimeUnit.MILLISECONDS.toNanos(1));
        c.check(
                !h.isHeld(),
                "with replies delayed by " + delay.toMillis() + " ms, " + what + " was still held "
                        + (System.nanoTime() - seenAt) / 1_000_000 + " ms after its reply arrived (lease "
                        + c.lease().toMillis()
                        + " ms): its deadline must count from before the request was sent, not from the reply");
    }

    private static boolean granted(CompletableFuture<LockHandle> f) {
        return f.isDone()
                && !f.isCompletedExceptionally()
                && !f.isCancelled()
                && f.join().isHeld();
    }

    private static String outcome(CompletableFuture<LockHandle> f) {
        if (!f.isDone()) {
            return "still waiting";
        }
        return f.handle((h, e) -> e != null ? "failed with " + e : "granted").join();
    }
}
