package io.locksmith.tck;

import io.locksmith.DistributedSemaphore;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockStatus;
import io.locksmith.PermitMismatchException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A semaphore admits at most its permits' holders at a time, across clients; every holder agrees
 * on the number; tokens increase across permits; permits renew, return when their holder dies,
 * and wake waiters; and the semaphore {@code x} is apart from the lock and the read-write lock
 * {@code x}. Every rule skips, saying so, if the provider keeps no semaphores.
 */
interface SemaphoreRules extends Rules {

    int SEMAPHORE_PERMITS = 2;
    int SEMAPHORE_CLIENTS = 3;
    int SEMAPHORE_THREADS_PER_CLIENT = 2;
    int SEMAPHORE_GRANTS = 300;

    @Test
    default void required_semaphoreAdmitsAtMostItsPermitsUnderContention() throws Exception {
        LockContract c = contract();
        String name = c.name("contended");
        List<DistributedSemaphore> semaphores = new ArrayList<>();
        for (int i = 0; i < SEMAPHORE_CLIENTS; i++) {
            semaphores.add(c.semaphore(c.client(), name, SEMAPHORE_PERMITS));
        }
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger grants = new AtomicInteger();
        int threads = SEMAPHORE_CLIENTS * SEMAPHORE_THREADS_PER_CLIENT;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                DistributedSemaphore semaphore = semaphores.get(t % SEMAPHORE_CLIENTS);
                done.add(pool.submit(() -> {
                    while (grants.get() < SEMAPHORE_GRANTS) {
                        try (LockHandle h = semaphore.acquire(c.margin().multipliedBy(10))) {
                            int now = holding.incrementAndGet();
                            most.accumulateAndGet(now, Math::max);
                            int grant = grants.incrementAndGet();
                            synchronized (holding) {
                                holding.notifyAll();
                            }
                            // held a moment, so that the other permits' holders overlap it
                            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(2_000_000) + 500_000);
                            if (grant <= SEMAPHORE_PERMITS * SEMAPHORE_CLIENTS) {
                                // where a grant takes longer than that moment, grants made one after
                                // another never overlap: the first few wait a while for the others
                                awaitHolders(holding, SEMAPHORE_PERMITS, c.margin());
                            }
                            holding.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                c.complete(f, Duration.ofMinutes(5), "a contending thread must finish its grants");
            }
        } finally {
            pool.shutdownNow();
        }
        c.check(
                most.get() <= SEMAPHORE_PERMITS,
                most.get() + " holders held a semaphore of " + SEMAPHORE_PERMITS + " permits at once");
        c.check(
                most.get() == SEMAPHORE_PERMITS,
                "a semaphore of " + SEMAPHORE_PERMITS + " permits under contention from " + threads
                        + " threads never had more than " + most.get() + " holder at once in " + grants.get()
                        + " grants");
    }

    /** Waits until {@code holding} reaches {@code holders} or {@code most} has passed. */
    private static void awaitHolders(AtomicInteger holding, int holders, Duration most) throws InterruptedException {
        long end = System.nanoTime() + most.toNanos();
        synchronized (holding) {
            for (long left = most.toNanos(); holding.get() < holders && left > 0; left = end - System.nanoTime()) {
                TimeUnit.NANOSECONDS.timedWait(holding, left);
            }
        }
    }

    @Test
    default void required_semaphoreGrantsExactlyItsPermits() {
        LockContract c = contract();
        String name = c.name("exact");
        List<LockHandle> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Optional<LockHandle> h = c.semaphore(c.client(), name, 3).tryAcquire();
            c.check(h.isPresent(), "permit " + (i + 1) + " of 3 must be granted to a client while it is free");
            held.add(h.get());
        }
        c.check(
                c.semaphore(c.client(), name, 3).tryAcquire().isEmpty(),
                "a fourth client must not be granted a permit of a semaphore of 3 while three are held");
        held.forEach(LockHandle::close);
    }

    @Test
    default void required_semaphoreRejectsAMismatchedPermitCount() {
        LockContract c = contract();
        String name = c.name("mismatch");
        LockHandle two = c.semaphore(c.client(), name, 2).acquire(Duration.ZERO);
        DistributedSemaphore three = c.semaphore(c.client(), name, 3);
        PermitMismatchException refused = c.expectThrows(
                PermitMismatchException.class,
                three::tryAcquire,
                "tryAcquire() of a semaphore of 3 permits while a holder gave 2 must fail with PermitMismatchException");
        c.check(
                refused.held() == 2 && refused.asked() == 3,
                "the mismatch must name both numbers, held 2 and asked 3; it said held " + refused.held() + ", asked "
                        + refused.asked());
        long start = System.nanoTime();
        c.expectThrows(
                PermitMismatchException.class,
                () -> three.acquire(c.margin().multipliedBy(10)),
                "acquire() of a semaphore of 3 permits while a holder gave 2 must fail with PermitMismatchException");
        c.check(
                System.nanoTime() - start < c.margin().toNanos(),
                "a mismatch must end the wait at once, not when the wait runs out");
        two.close();
        LockHandle renumbered =
                c.grantedAtOnce(three, "once every holder released, a new number of permits is" + " accepted:");
        renumbered.close();
    }

    @Test
    default void required_semaphoreTokensIncreaseAcrossPermits() {
        LockContract c = contract();
        String name = c.name("tokens");
        List<DistributedSemaphore> clients = List.of(
                c.semaphore(c.client(), name, 2), c.semaphore(c.client(), name, 2), c.semaphore(c.client(), name, 2));
        long last = Long.MIN_VALUE;
        for (int i = 0; i < 10; i++) {
            try (LockHandle h = clients.get(i % 3).acquire(c.margin())) {
                c.check(
                        h.fencingToken() > last,
                        "grant " + i + " carried token " + h.fencingToken() + " after " + last);
                last = h.fencingToken();
            }
        }
        // one permit stays held while the other is granted again and again; then the first is granted again
        LockHandle kept = clients.get(0).acquire(c.margin());
        c.check(kept.fencingToken() > last, "a grant carried token " + kept.fencingToken() + " after " + last);
        last = kept.fencingToken();
        for (int i = 0; i < 5; i++) {
            try (LockHandle h = clients.get(1 + i % 2).acquire(c.margin())) {
                c.check(
                        h.fencingToken() > last,
                        "a grant beside a held permit carried token " + h.fencingToken() + " after " + last);
                last = h.fencingToken();
            }
        }
        kept.close();
        LockHandle a = clients.get(1).acquire(c.margin());
        LockHandle b = clients.get(2).acquire(c.margin());
        c.check(
                a.fencingToken() > last && b.fencingToken() > a.fencingToken(),
                "after the kept permit was released, the next grants carried tokens " + a.fencingToken() + " and "
                        + b.fencingToken() + ", not strictly increasing from " + last + ": tokens count per"
                        + " semaphore, not per permit");
        a.close();
        b.close();
    }

    @Test
    default void required_semaphorePermitsRenewPastThreeLeases() {
        LockContract c = contract();
        String name = c.name("renewed");
        LockHandle first = c.semaphore(c.client(), name, 2).acquire(Duration.ZERO);
        LockHandle second = c.semaphore(c.client(), name, 2).acquire(Duration.ZERO);
        c.throughout(
                c.lease().multipliedBy(3).plus(c.lease().dividedBy(2)),
                () -> first.isHeld() && second.isHeld(),
                "permits with automatic renewal must stay held past three leases");
        c.check(
                c.semaphore(c.client(), name, 2).tryAcquire().isEmpty(),
                "after three leases another client must still find both renewed permits taken");
        first.close();
        second.close();
    }

    @Test
    default void required_aDeadSemaphoreHoldersPermitReturnsWithinItsLease() {
        LockContract c = contract();
        String name = c.name("dead");
        // a holder that stops renewing and never releases: as a process that died holding the permit
        long before = System.nanoTime();
        LockHandle dead = c.semaphore(c.client(), name, 1).withAutoRenew(false).acquire(Duration.ZERO);
        Duration bound = c.lease().plus(c.margin());
        LockHandle next = c.semaphore(c.client(), name, 1).acquire(bound.multipliedBy(2));
        long took = System.nanoTime() - before;
        c.check(
                took <= bound.toNanos(),
                "a dead holder's permit must return within its lease plus "
                        + c.margin().toMillis() + " ms; it took " + TimeUnit.NANOSECONDS.toMillis(took) + " ms");
        c.check(
                next.fencingToken() > dead.fencingToken(),
                "the grant after a dead holder's permit returned carried token " + next.fencingToken()
                        + ", not greater than " + dead.fencingToken());
        next.close();
        dead.close();
    }

    @Test
    default void required_aSemaphoreWaiterIsGrantedWhenAPermitIsReleased() {
        LockContract c = contract();
        String name = c.name("waiter");
        LockHandle held = c.semaphore(c.client(), name, 1).acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiting =
                c.semaphore(c.client(), name, 1).acquireAsync(c.lease().multipliedBy(10));
        c.throughout(
                Duration.ofMillis(300), () -> !waiting.isDone(), "the waiter must wait while the one permit is held");
        held.close();
        LockHandle granted =
                c.complete(waiting, c.margin(), "a waiter must be granted the permit once its holder released it");
        c.check(granted.isHeld(), "the waiter must hold the permit it was granted");
        granted.close();
    }

    @Test
    default void required_locksSemaphoresAndReadWriteLocksOfOneNameAreApart() {
        LockContract c = contract();
        for (int order = 0; order < 2; order++) {
            String name = c.name("apart" + order);
            LockClient one = c.client();
            LockClient two = c.client();
            List<LockHandle> held = new ArrayList<>();
            // each family is taken while the others hold the same name: first semaphore, read-write
            // lock, lock; then lock, read-write lock, semaphore
            String[] families = order == 0
                    ? new String[] {"semaphore", "write lock", "lock"}
                    : new String[] {"lock", "write lock", "semaphore"};
            for (String family : families) {
                Optional<LockHandle> taken = switch (family) {
                    case "semaphore" -> c.semaphore(one, name, 1).tryAcquire();
                    case "write lock" -> c.readWriteLock(one, name).writeLock().tryAcquire();
                    default -> one.lock(name).tryAcquire();
                };
                c.check(
                        taken.isPresent(),
                        "the " + family + " '" + name + "' must be granted while " + held.size()
                                + " other families of that name are held: families of one name are apart");
                held.add(taken.get());
            }
            c.check(c.semaphore(two, name, 1).tryAcquire().isEmpty(), "the semaphore of one permit must still be held");
            c.check(
                    c.readWriteLock(two, name).readLock().tryAcquire().isEmpty(),
                    "the read-write lock's writer must still hold it");
            c.check(two.lock(name).tryAcquire().isEmpty(), "the lock must still be held");
            held.forEach(LockHandle::close);
        }
    }

    /**
     * Affixes a backend might put on a family's keys: a lock, a semaphore and a read-write lock
     * named with them must stay apart from those of the plain name, as any names must.
     */
    List<String> KEY_AFFIXES = List.of(
            "!semaphore:%s",
            "!rw:%s",
            "semaphore:%s",
            "rw:%s",
            "lock:%s",
            "%s:semaphore",
            "%s:semaphore-fence",
            "%s:rwlock",
            "%s:rwlock-writers",
            "%s:rw",
            "%s/.semaphore",
            "%s/.rwlock",
            "%s/permit-0",
            "%s/read-0");

    @Test
    default void required_familiesStayApartForNamesLikeEachOthersKeys() {
        LockContract c = contract();
        String base = c.name("affixed");
        List<String> names = new ArrayList<>();
        names.add(base);
        KEY_AFFIXES.forEach(a -> names.add(String.format(a, base)));
        LockClient one = c.client();
        LockClient two = c.client();
        List<LockHandle> held = new ArrayList<>();
        // every family of every name at once: all distinct, so each must be granted
        for (String family : new String[] {"semaphore", "write lock", "lock"}) {
            for (String n : names) {
                Optional<LockHandle> taken = switch (family) {
                    case "semaphore" -> c.semaphore(one, n, 1).tryAcquire();
                    case "write lock" -> c.readWriteLock(one, n).writeLock().tryAcquire();
                    default -> one.lock(n).tryAcquire();
                };
                c.check(
                        taken.isPresent(),
                        "the " + family + " '" + n + "' must be granted beside " + held.size()
                                + " holds of other families and names like it: a family's keys must not meet"
                                + " another family's, whatever the name (escape, or hash and keep the name)");
                held.add(taken.get());
            }
        }
        for (String n : names) {
            c.check(c.semaphore(two, n, 1).tryAcquire().isEmpty(), "the semaphore '" + n + "' must still be held");
            c.check(two.lock(n).tryAcquire().isEmpty(), "the lock '" + n + "' must still be held");
        }
        held.forEach(LockHandle::close);
    }

    @Test
    default void required_semaphoreHoldersListsTheCurrentHoldersWithDistinctTokens() {
        LockContract c = contract();
        String name = c.name("holders");
        DistributedSemaphore looked = c.semaphore(c.client(), name, 3);
        LockHandle first = c.semaphore(c.client(), name, 3).acquire(Duration.ZERO);
        LockHandle second = c.semaphore(c.client(), name, 3).acquire(Duration.ZERO);
        List<LockStatus> holders;
        try {
            holders = looked.holders();
        } catch (UnsupportedOperationException e) {
            // the backend has no inspector: there is nothing to list, and nothing wrong
            first.close();
            second.close();
            return;
        }
        Set<Long> tokens = new HashSet<>();
        for (LockStatus s : holders) {
            c.check(s.state() == LockStatus.State.HELD, "every listed holder must be held: " + s);
            c.check(s.owner().isPresent(), "every listed holder must name its owner: " + s);
            s.fencingToken().ifPresent(tokens::add);
        }
        c.check(holders.size() == 2, "holders() must list the 2 current holders, listed " + holders);
        c.check(
                tokens.equals(Set.of(first.fencingToken(), second.fencingToken())),
                "holders() must show the holders' tokens " + first.fencingToken() + " and " + second.fencingToken()
                        + ", showed " + holders);
        first.close();
        c.eventually(
                c.margin(), () -> looked.holders().size() == 1, "holders() must list 1 holder once the other released");
        second.close();
    }
}
