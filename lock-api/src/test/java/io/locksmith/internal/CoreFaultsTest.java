package io.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockBackendException;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LossReason;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The core under faults a backend or a user can cause: errors mid-call, a client closed while
 * acquisitions wait, renewal batches a provider answers wrongly, grants that arrive late or with
 * an earlier confirmation, losses reported before the grant is handed out. On a {@link ManualClock}:
 * leases, ticks and back-offs fall due when a test moves the clock.
 */
class CoreFaultsTest {

    private final TestBackend backend = new TestBackend();
    private final AtomicReference<BackendEvents> events = new AtomicReference<>();
    private ManualClock clock;
    private static final LockOptions FAST_BACKOFF = LockOptions.builder()
            .backoffMin(Duration.ofMillis(5))
            .backoffMax(Duration.ofMillis(20))
            .build();

    private DefaultLockClient client = open(FAST_BACKOFF);

    /** Opens a client on a clock of its own (closing a client stops its clock). */
    private DefaultLockClient open(LockOptions options) {
        clock = new ManualClock();
        return DefaultLockClient.onClock(
                context -> {
                    events.set(context.events());
                    return backend.attach(context);
                },
                options,
                clock);
    }

    /** Moves the clock by {@code total} in steps, letting the work that falls due run after each. */
    private void pass(Duration total, Duration step) {
        for (long t = 0; t < total.toNanos(); t += step.toNanos()) {
            clock.advance(step);
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(1))
                    .until(client::workersIdle);
        }
    }

    private static <T> CompletableFuture<Throwable> failureOf(java.util.function.Supplier<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                call.get();
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
    }

    private void reopen(LockOptions options) {
        client.close();
        client = open(options);
    }

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void javaLockTryLockAfterABackendErrorKeepsNothingLocally() throws Exception {
        Lock lock = client.lock("a").asLock();
        backend.failing = true;
        assertThatThrownBy(lock::tryLock).isInstanceOf(LockBackendException.class);
        CompletableFuture<Throwable> timed = failureOf(() -> {
            try {
                return lock.tryLock(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> clock.pending() >= 2);
        pass(Duration.ofMillis(55), Duration.ofMillis(5));
        assertThat(timed.get(10, TimeUnit.SECONDS)).isInstanceOf(LockBackendException.class);
        backend.failing = false;
        CompletableFuture<Boolean> other = CompletableFuture.supplyAsync(lock::tryLock);
        assertThat(other.get(10, TimeUnit.SECONDS))
                .as("another thread must not be locked out after an error")
                .isTrue();
        assertThat(backend.owners)
                .as("a true tryLock() holds the distributed lock")
                .containsKey("a");
        backend.owners.clear();
        assertThat(lock.tryLock())
                .as("this thread: the other thread holds the local lock")
                .isFalse();
    }

    @Test
    void javaLockTryLockOnThisThreadAfterAnErrorTakesTheDistributedLock() {
        Lock lock = client.lock("a").asLock();
        backend.failing = true;
        assertThatThrownBy(lock::tryLock).isInstanceOf(LockBackendException.class);
        backend.failing = false;
        assertThat(lock.tryLock()).isTrue();
        assertThat(backend.owners)
                .as("tryLock() true after an error must hold the distributed lock")
                .containsKey("a");
        lock.unlock();
        assertThat(backend.owners).doesNotContainKey("a");
    }

    @Test
    void closingTheClientEndsEveryAcquisitionInFlight() throws Exception {
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> async = client.lock("a").acquireAsync(Duration.ofSeconds(60));
        CompletableFuture<Throwable> blocking = CompletableFuture.supplyAsync(() -> {
            try {
                client.lock("a").acquire(Duration.ofSeconds(60));
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        // both asleep: two deadlines and two back-offs on the clock
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.acquireCalls.get() >= 3 && clock.pending() >= 4);
        client.close();
        Throwable fromBlocking = blocking.get(10, TimeUnit.SECONDS);
        assertThat(fromBlocking)
                .as("acquire() must end when the client closes")
                .isNotNull()
                .hasMessageContaining("'a'")
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> async.get(10, TimeUnit.SECONDS))
                .as("acquireAsync() must end when the client closes")
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("'a'")
                .hasMessageContaining("closed");
        assertThat(holder.isHeld()).isFalse();
    }

    @Test
    void closingTheClientEndsQueuedAcquisitions() throws Exception {
        backend.queued = true;
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> async = client.lock("a").acquireAsync(Duration.ofSeconds(60));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.waiting.size() == 1);
        client.close();
        assertThatThrownBy(() -> async.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("'a'")
                .hasMessageContaining("closed");
        assertThat(backend.cancelled).as("the ticket leaves the queue").hasValue(1);
        holder.close();
    }

    @Test
    void aFailedTicketIsQueuedAgainWhileTheWaitLasts() throws Exception {
        backend.queued = true;
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter = client.lock("a").acquireAsync(Duration.ofSeconds(60));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.waiting.size() == 1);
        backend.waiting
                .values()
                .iterator()
                .next()
                .completeExceptionally(new LockBackendException("test://backend: the queue entry's put timed out"));
        pass(Duration.ofMillis(50), Duration.ofMillis(5)); // the back-off before enqueueing again
        await("the core enqueues again after a failed ticket")
                .atMost(Duration.ofSeconds(10))
                .until(() -> backend.enqueueCalls.get() >= 2
                        && backend.waiting.size() == 1
                        && !backend.waiting.values().iterator().next().isDone());
        assertThat(waiter).isNotDone();
        holder.close();
        backend.grantNext("a");
        assertThat(waiter.get(10, TimeUnit.SECONDS).isHeld()).isTrue();
    }

    @Test
    void aQueuedGrantCountsItsDeadlineFromItsConfirmationNotItsArrival() throws Exception {
        reopen(LockOptions.builder()
                .lease(Duration.ofSeconds(10))
                .autoRenew(false)
                .build());
        backend.queued = true;
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter = client.lock("a").acquireAsync(Duration.ofSeconds(60));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.waiting.size() == 1);
        backend.owners.clear();
        long confirmed = clock.nanoTime() - TimeUnit.SECONDS.toNanos(8);
        backend.grantNext("a", g -> g.confirmedAt(confirmed));
        LockHandle next = waiter.get(10, TimeUnit.SECONDS);
        assertThat(next.remainingLease())
                .as("a lease confirmed 8 s ago has 2 s left")
                .isEqualTo(Duration.ofSeconds(2));
        holder.close();
    }

    @Test
    void aQueuedGrantWithoutConfirmationIsRenewedBeforeItIsHandedOut() throws Exception {
        reopen(LockOptions.builder()
                .lease(Duration.ofSeconds(10))
                .autoRenew(false)
                .build());
        backend.queued = true;
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter = client.lock("a").acquireAsync(Duration.ofSeconds(60));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.waiting.size() == 1);
        backend.owners.clear();
        int renewsBefore = backend.renewCalls.get();
        backend.grantNext("a");
        LockHandle next = waiter.get(10, TimeUnit.SECONDS);
        assertThat(backend.renewCalls.get())
                .as("an unconfirmed queued grant is renewed once")
                .isEqualTo(renewsBefore + 1);
        assertThat(next.isHeld()).isTrue();
        holder.close();
    }

    @Test
    void aLossReportedBeforeTheGrantIsHandedOutIsNotDropped() {
        backend.afterTake = request -> events.get().lost(request.key(), request.owner(), LossReason.OWNERSHIP_LOST);
        LockHandle h = client.lock("a").tryAcquire().orElse(null);
        assertThat(h == null || !h.isHeld())
                .as("a grant whose loss the backend reported first must not be held")
                .isTrue();
        if (h != null) {
            assertThat(h.whenLost().toCompletableFuture().join()).isEqualTo(LossReason.OWNERSHIP_LOST);
        }
    }

    @Test
    void aRenewalBatchAnsweredWithTooFewOutcomesDoesNotStopRenewal() {
        reopen(LockOptions.builder().lease(Duration.ofMillis(600)).build());
        AtomicInteger calls = new AtomicInteger();
        backend.renewHook = leases -> calls.incrementAndGet() == 1 ? List.of() : renewAll(leases);
        LockHandle h = client.lock("a").acquire(Duration.ZERO);
        pass(Duration.ofSeconds(1), Duration.ofMillis(10));
        assertThat(calls.get()).as("renewal goes on after a malformed answer").isGreaterThanOrEqualTo(4);
        assertThat(h.isHeld()).isTrue();
    }

    @Test
    void aRenewalThatThrowsAnErrorDoesNotStopRenewal() {
        reopen(LockOptions.builder().lease(Duration.ofMillis(600)).build());
        AtomicInteger calls = new AtomicInteger();
        backend.renewHook = leases -> {
            if (calls.incrementAndGet() == 1) {
                throw new AssertionError("a provider's bug");
            }
            return renewAll(leases);
        };
        LockHandle h = client.lock("a").acquire(Duration.ZERO);
        pass(Duration.ofSeconds(1), Duration.ofMillis(10));
        assertThat(calls.get()).as("renewal goes on after an Error").isGreaterThanOrEqualTo(4);
        assertThat(h.isHeld()).isTrue();
    }

    @Test
    void aRenewalBatchCutShortRenewsTheMostUrgentLeasesFirst() {
        // a provider with one request per lease gets through the start of a long batch within its
        // bound (Azure on a saturated host): the leases it did not reach must come first next time,
        // or the same ones are cut again and again, kept only by last-moment retries or lost
        reopen(LockOptions.builder().lease(Duration.ofMillis(600)).build());
        int perCall = 10;
        backend.renewHook = leases -> {
            List<RenewOutcome> out = new ArrayList<>(renewAll(leases.subList(0, Math.min(perCall, leases.size()))));
            while (out.size() < leases.size()) {
                out.add(RenewOutcome.FAILED);
            }
            return out;
        };
        List<LockHandle> handles = new ArrayList<>();
        for (int i = 0; i < 3 * perCall; i++) {
            handles.add(client.lock("n" + i).acquire(Duration.ZERO));
        }
        // every call renews a third of the locks and a retry follows within 50 ms: enough to renew
        // each lock at least every 200 ms, so none comes within half a lease of its end
        Duration least = Duration.ofMillis(600);
        for (int step = 0; step < 180; step++) {
            pass(Duration.ofMillis(10), Duration.ofMillis(10));
            for (LockHandle h : handles) {
                Duration left = h.remainingLease();
                least = left.compareTo(least) < 0 ? left : least;
            }
        }
        assertThat(handles).allMatch(LockHandle::isHeld);
        assertThat(least)
                .as("the shortest lease left on any lock in three leases")
                .isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    private List<RenewOutcome> renewAll(List<HeldLease> leases) {
        List<RenewOutcome> out = new ArrayList<>();
        for (HeldLease l : leases) {
            out.add(l.owner().equals(backend.owners.get(l.key())) ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED);
        }
        return out;
    }

    @Test
    void aRenewalSentAfterAnExtendCountsTheLeaseItSent() throws Exception {
        Duration shortLease = Duration.ofMillis(900);
        reopen(LockOptions.builder().lease(shortLease).build());
        CountDownLatch extendSent = new CountDownLatch(1);
        CountDownLatch tickSent = new CountDownLatch(1);
        CountDownLatch extendDone = new CountDownLatch(1);
        // the next tick renews with the handle's lease again (30 s): held back until the handle
        // was read, so that the check does not depend on catching a window of one tick
        CountDownLatch read = new CountDownLatch(1);
        AtomicBoolean extendSeen = new AtomicBoolean();
        LockHandle h = client.lock("a").acquire(Duration.ZERO);
        backend.renewHook = leases -> {
            try {
                if (leases.get(0).lease().equals(Duration.ofSeconds(30)) && extendSeen.compareAndSet(false, true)) {
                    extendSent.countDown(); // the extend is on its way; let the tick send after it
                    tickSent.await(2, TimeUnit.SECONDS);
                } else if (extendSent.getCount() == 0 && tickSent.getCount() == 1) {
                    tickSent.countDown(); // the tick, sent after the extend, with the old lease
                    extendDone.await(5, TimeUnit.SECONDS);
                } else if (tickSent.getCount() == 0) {
                    read.await(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return renewAll(leases);
        };
        clock.advance(Duration.ofMillis(299)); // just before the first tick, a third of the lease in
        CompletableFuture<Void> extend = CompletableFuture.runAsync(() -> h.extend(Duration.ofSeconds(30)));
        assertThat(extendSent.await(10, TimeUnit.SECONDS))
                .as("the extend is sent")
                .isTrue();
        clock.advance(Duration.ofMillis(1)); // the tick falls due while the extend is in flight
        assertThat(tickSent.await(10, TimeUnit.SECONDS))
                .as("the renewal tick ran while the extend was in flight")
                .isTrue();
        extend.get(10, TimeUnit.SECONDS);
        extendDone.countDown();
        await("the server's last word was the " + shortLease + " lease the tick sent")
                .atMost(Duration.ofSeconds(5))
                .until(() -> h.remainingLease().compareTo(shortLease) <= 0);
        read.countDown();
    }

    @Test
    void tryAcquireWhoseOwnGrantRanOutDuringTheCallTriesAgain() {
        reopen(LockOptions.builder().lease(Duration.ofMillis(50)).build());
        backend.stallAcquire = new CountDownLatch(1);
        AtomicBoolean released = new AtomicBoolean();
        Thread unstall = new Thread(() -> {
            try {
                backend.stalled.await(10, TimeUnit.SECONDS);
                clock.advance(Duration.ofMillis(150)); // the attempt outlives its 50 ms lease
            } catch (InterruptedException e) {
                return;
            }
            CountDownLatch stall = backend.stallAcquire;
            backend.stallAcquire = null;
            released.set(true);
            stall.countDown();
        });
        unstall.start();
        LockHandle h = client.lock("a").tryAcquire().orElse(null);
        assertThat(h)
                .as("nobody else held the lock: tryAcquire() must not say it is held by another")
                .isNotNull();
        h.close();
    }

    @Test
    void aOneShotAttemptThatFailedIsAbandoned() throws Exception {
        backend.failing = true;
        assertThatThrownBy(() -> client.lock("a").tryAcquire()).isInstanceOf(LockBackendException.class);
        assertThat(backend.abandoned)
                .as("an attempt whose outcome is unknown is abandoned")
                .hasSize(1);
        CompletableFuture<Throwable> waited = failureOf(() -> client.lock("b").acquire(Duration.ofMillis(100)));
        await().atMost(Duration.ofSeconds(10)).until(() -> clock.pending() >= 2);
        pass(Duration.ofMillis(105), Duration.ofMillis(5));
        assertThat(waited.get(10, TimeUnit.SECONDS)).isInstanceOf(LockBackendException.class);
        // the wait's failed attempts are one request: it is abandoned (once, or again by an attempt
        // that failed as the wait ended, which is harmless: abandon is owner-checked), and nothing else is
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.abandoned.size() >= 2);
        String first = backend.abandoned.get(0);
        List<String> ofTheWait = List.copyOf(backend.abandoned.subList(1, backend.abandoned.size()));
        assertThat(ofTheWait)
                .as("the wait's attempt was abandoned, and only it")
                .doesNotContain(first)
                .containsOnly(ofTheWait.get(0));
    }

    @Test
    void aWaiterFallsBackToBackoffWhenSubscribingFails() throws Exception {
        backend.signals = true;
        backend.subscribeFails = true;
        reopen(FAST_BACKOFF);
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.acquireCalls.get() >= 2 && clock.pending() >= 2);
        holder.close();
        pass(Duration.ofMillis(50), Duration.ofMillis(5));
        assertThat(waiter.get(10, TimeUnit.SECONDS).isHeld())
                .as("a refused subscription falls back to back-off")
                .isTrue();
        backend.subscribeFails = false;
        LockHandle again = waiter.get();
        again.close();
        LockHandle holder2 = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> second = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        !backend.listeners.getOrDefault("a", java.util.Set.of()).isEmpty());
        holder2.close();
        assertThat(second.get(10, TimeUnit.SECONDS).isHeld())
                .as("the key's signals work again after a failure")
                .isTrue();
    }

    @Test
    void aWaitThatEndsWithItsAttemptStillOutAbandonsIt() throws Exception {
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.acquireCalls.get() >= 2);
        backend.stallAcquire = new CountDownLatch(1);
        backend.stalled = new CountDownLatch(1);
        holder.close();
        clock.advance(Duration.ofMillis(50)); // the waiter's next attempt, which stalls
        assertThat(backend.stalled.await(10, TimeUnit.SECONDS))
                .as("an attempt is out")
                .isTrue();
        waiter.cancel(false);
        await("the attempt still out when the wait ended is abandoned")
                .atMost(Duration.ofSeconds(5))
                .until(() -> backend.abandoned.size() == 1);
        backend.stallAcquire.countDown();
    }

    @Test
    void aWaitAsksAsAWaiterAndIsAbandonedWhenItEndsWithoutAGrant() throws Exception {
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        assertThat(client.lock("a").tryAcquire()).isEmpty();
        CompletableFuture<LockHandle> waiter = client.lock("a").acquireAsync(Duration.ofMillis(50));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.acquireCalls.get() >= 3);
        pass(Duration.ofMillis(60), Duration.ofMillis(5));
        assertThat(waiter).failsWithin(Duration.ofSeconds(10));
        List<AcquireRequest> asked = List.copyOf(backend.requests);
        assertThat(asked.get(1).waits()).as("a one-shot attempt does not wait").isFalse();
        AcquireRequest waited = asked.get(2);
        assertThat(waited.waits()).as("a wait's attempts say that it waits").isTrue();
        assertThat(asked.subList(2, asked.size())).allSatisfy(r -> assertThat(r).isEqualTo(waited));
        await("the ended wait is abandoned, so that a queue forgets the waiter")
                .atMost(Duration.ofSeconds(10))
                .until(() -> backend.abandoned.contains(waited.owner()));
        assertThat(backend.abandoned).doesNotContain(asked.get(1).owner());
        holder.close();
    }

    @Test
    void aReleaseThatNamesTheNextOwnerWakesOnlyThatOwnersWaiter() throws Exception {
        backend.signals = true;
        backend.holderLeft = Duration.ofSeconds(60);
        reopen(FAST_BACKOFF);
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> first = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        CompletableFuture<LockHandle> second = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> backend.requests.stream()
                                        .filter(AcquireRequest::waits)
                                        .map(AcquireRequest::owner)
                                        .distinct()
                                        .count()
                                == 2
                        && client.workersIdle());
        List<String> waiters = backend.requests.stream()
                .filter(AcquireRequest::waits)
                .map(AcquireRequest::owner)
                .distinct()
                .toList();
        String next = waiters.get(1);
        String key = backend.requests.get(0).key();
        backend.owners.clear(); // freed without a signal; the queue gives it to the later waiter
        int before = backend.acquireCalls.get();
        events.get().released(key, "someone-else");
        await().atMost(Duration.ofSeconds(10)).until(client::workersIdle);
        assertThat(backend.acquireCalls.get())
                .as("another client's next owner wakes nobody here")
                .isEqualTo(before);
        events.get().released(key, next);
        await().atMost(Duration.ofSeconds(10)).until(() -> first.isDone() || second.isDone());
        await().atMost(Duration.ofSeconds(10)).until(client::workersIdle);
        assertThat(backend.owners).as("the named waiter took it").containsEntry(key, next);
        assertThat(backend.acquireCalls.get()).as("only the named waiter tried").isEqualTo(before + 1);
        assertThat(first.isDone() && second.isDone()).isFalse();
        (first.isDone() ? first : second).get().close();
        (first.isDone() ? second : first).cancel(false);
        holder.close();
    }

    @Test
    void aWaiterThatJoinedWhileTheSubscriptionWasRefusedBacksOff() throws Exception {
        backend.signals = true;
        backend.subscribeFails = true;
        backend.subscribeStall = new CountDownLatch(1);
        backend.holderLeft = Duration.ofSeconds(60); // a signalled waiter would sleep toward its 1 s cap
        reopen(FAST_BACKOFF);
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> first = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        assertThat(backend.subscribing.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<LockHandle> joiner = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.acquireCalls.get() >= 3);
        backend.subscribeStall.countDown(); // the first waiter's subscribe is refused now
        await().atMost(Duration.ofSeconds(10)).until(client::workersIdle);
        holder.close();
        pass(Duration.ofMillis(200), Duration.ofMillis(5));
        LockHandle winner = CompletableFuture.anyOf(first, joiner)
                .thenApply(LockHandle.class::cast)
                .get(10, TimeUnit.SECONDS);
        winner.close();
        pass(Duration.ofMillis(200), Duration.ofMillis(5));
        assertThat(first.isDone() && joiner.isDone())
                .as("both waiters back off (5-20 ms); neither waits for a signal" + " (a 1 s sleep)")
                .isTrue();
        (first.isDone() ? joiner : first).get(10, TimeUnit.SECONDS).close();
    }

    @Test
    void aTicketGrantedAtOnceIsNeverCancelledUnderItsHandle() {
        backend.queued = true;
        backend.grantAtEnqueue = true;
        for (int i = 0; i < 300; i++) {
            LockHandle h = client.lock("a" + i).acquire(Duration.ofSeconds(10));
            assertThat(backend.cancelled)
                    .as("a granted ticket is the handle's lock: cancelling it would free it")
                    .hasValue(0);
            h.close();
        }
    }

    @Test
    void anAttemptInFlightWhenTheClientClosesIsReleasedBeforeTheBackendCloses() throws Exception {
        backend.stallAcquire = new CountDownLatch(1);
        CompletableFuture<LockHandle> waiting = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        assertThat(backend.stalled.await(10, TimeUnit.SECONDS)).isTrue();
        Thread closing = new Thread(client::close, "closing");
        closing.start();
        // the attempt goes on once the close has ended the wait and either returned or waits for it
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        waiting.isDone() && (!closing.isAlive() || closing.getState() == Thread.State.TIMED_WAITING));
        backend.stallAcquire.countDown();
        closing.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(closing.isAlive()).as("close returns").isFalse();
        assertThat(backend.owners)
                .as("an attempt granted after the close ended its wait is released before the backend closes,"
                        + " not left to hold the lock for a lease")
                .isEmpty();
    }
}
