package io.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.DistributedLock;
import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LockInterruptedException;
import io.locksmith.LockOptions;
import io.locksmith.LockTimeoutException;
import io.locksmith.LossReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The core's machinery (waiting, renewal, loss, cancellation, interrupts) over {@link TestBackend},
 * on a {@link ManualClock}: leases, renewal ticks, back-offs and wait deadlines fall due when a test
 * moves the clock, never by waiting in real time.
 */
class CoreTest {

    private static final LockOptions FAST_BACKOFF = LockOptions.builder()
            .backoffMin(Duration.ofMillis(5))
            .backoffMax(Duration.ofMillis(20))
            .build();

    private final TestBackend backend = new TestBackend();
    /** The default back-off, 10 ms to 1 s, for the rules that shape it. */
    private static final LockOptions DEFAULT_BACKOFF = LockOptions.builder().build();

    private ManualClock clock;
    private DefaultLockClient client = open(FAST_BACKOFF);

    /** Opens a client on a clock of its own (closing a client stops its clock). */
    private DefaultLockClient open(LockOptions options) {
        clock = new ManualClock();
        return DefaultLockClient.onClock(backend::attach, options, clock);
    }

    /** Opens the client again with the defaults, keeping the backend's event sink for the test. */
    private AtomicReference<io.locksmith.spi.BackendEvents> reopenWithEvents() {
        AtomicReference<io.locksmith.spi.BackendEvents> sink = new AtomicReference<>();
        client.close();
        clock = new ManualClock();
        client = DefaultLockClient.onClock(
                context -> {
                    sink.set(context.events());
                    return backend.attach(context);
                },
                LockOptions.defaults(),
                clock);
        return sink;
    }

    /** Moves the clock by {@code total} in steps, letting the work that falls due run after each. */
    private void pass(Duration total, Duration step) {
        for (long t = 0; t < total.toNanos(); t += step.toNanos()) {
            clock.advance(step);
            settle();
        }
    }

    /** Waits (in real time, briefly) until the client's workers have run what they were given. */
    private void settle() {
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(1))
                .until(client::workersIdle);
    }

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void uncontendedAcquireIsOneBackendCall() {
        LockHandle h = client.lock("a").acquire(Duration.ofSeconds(1));
        assertThat(backend.acquireCalls).hasValue(1);
        h.close();
        h.close();
        assertThat(backend.releaseCalls).as("close is idempotent").hasValue(1);
    }

    @Test
    void aContendedAcquireMakesAtMostTwoBackendCallsBeforeItsFirstSleep() {
        for (boolean signals : new boolean[] {true, false}) {
            for (boolean async : new boolean[] {false, true}) {
                backend.signals = signals;
                client.close();
                client = open(FAST_BACKOFF);
                LockHandle holder = client.lock("a").acquire(Duration.ZERO);
                int before = backend.acquireCalls.get();
                CompletableFuture<LockHandle> waiter = async
                        ? client.lock("a").acquireAsync(Duration.ofSeconds(30))
                        : CompletableFuture.supplyAsync(() -> client.lock("a").acquire(Duration.ofSeconds(30)));
                // asleep: the wait's deadline and its first back-off are on the clock, no work is left
                await().atMost(Duration.ofSeconds(10)).until(() -> clock.pending() >= 2 && client.workersIdle());
                assertThat(backend.acquireCalls.get() - before)
                        .as(
                                "backend calls before the first sleep (signals %s, async %s): the first attempt's answer"
                                        + " starts the wait; with signals one more attempt follows the subscription",
                                signals, async)
                        .isEqualTo(signals ? 2 : 1);
                waiter.cancel(false);
                holder.close();
            }
        }
    }

    @Test
    void prefixIsPutBeforeTheName() {
        client.close();
        client = open(LockOptions.builder().prefix("billing").build());
        client.lock("order:1").acquire(Duration.ZERO);
        assertThat(backend.owners).containsOnlyKeys("billing:order:1");
    }

    @Test
    void waitingRetriesWithBackoffUntilTheDeadline() {
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter =
                CompletableFuture.supplyAsync(() -> client.lock("a").acquire(Duration.ofMillis(300)));
        await().atMost(Duration.ofSeconds(10)).until(() -> clock.pending() >= 2);
        pass(Duration.ofMillis(295), Duration.ofMillis(5));
        assertThat(waiter).as("still waiting 5 ms before its deadline").isNotDone();
        pass(Duration.ofMillis(10), Duration.ofMillis(5));
        assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(LockTimeoutException.class)
                .cause()
                .hasMessageContaining("'a'")
                .hasMessageContaining("300ms")
                .hasMessageContaining("test://backend");
        assertThat(backend.acquireCalls.get())
                .as("retried, with 5-20 ms pauses")
                .isBetween(15, 62);
        holder.close();
    }

    @Test
    void waiterTakesTheLockOnceFreed() throws Exception {
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.acquireCalls.get() >= 2);
        pass(Duration.ofMillis(100), Duration.ofMillis(5));
        assertThat(backend.acquireCalls.get()).as("retried with back-off").isGreaterThan(3);
        assertThat(waiter).isNotDone();
        holder.close();
        pass(Duration.ofMillis(100), Duration.ofMillis(5));
        LockHandle next = waiter.get(10, TimeUnit.SECONDS);
        assertThat(next.fencingToken()).isGreaterThan(holder.fencingToken());
    }

    /**
     * Makes a contended grant of {@code name} and releases it: one handle holds while a wait of the
     * same client is refused, the holder lets go, and the waiter, granted within {@code handoff},
     * releases. The client's next wait for the name then yields.
     */
    private void takeAfterWaitingAndRelease(String name, Duration handoff) throws Exception {
        LockHandle holder = client.lock(name).acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter = client.lock(name).acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.acquireCalls.get() >= 2 && client.workersIdle());
        holder.close();
        pass(handoff, Duration.ofMillis(5));
        waiter.get(10, TimeUnit.SECONDS).close();
    }

    @Test
    void aClientThatReleasesALockItWaitedForYieldsBeforeItsNextWait() throws Exception {
        client.close();
        client = open(DEFAULT_BACKOFF);
        takeAfterWaitingAndRelease("a", Duration.ofMillis(50));
        int before = backend.acquireCalls.get();
        CompletableFuture<LockHandle> again = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(client::workersIdle);
        assertThat(backend.acquireCalls.get())
                .as("the next wait for the same name yields a minimum back-off before it tries")
                .isEqualTo(before);
        pass(Duration.ofMillis(30), Duration.ofMillis(5));
        again.get(10, TimeUnit.SECONDS).close(); // granted at its first attempt, after yielding
        for (int i = 1; i < Yields.CREDIT; i++) {
            int calls = backend.acquireCalls.get();
            CompletableFuture<LockHandle> yielding = client.lock("a").acquireAsync(Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(10)).until(client::workersIdle);
            assertThat(backend.acquireCalls.get())
                    .as("a few more waits yield, in case the peers still wait")
                    .isEqualTo(calls);
            pass(Duration.ofMillis(30), Duration.ofMillis(5));
            yielding.get(10, TimeUnit.SECONDS).close();
        }
        int after = backend.acquireCalls.get();
        CompletableFuture<LockHandle> uncontended = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> uncontended.isDone() && client.workersIdle());
        assertThat(backend.acquireCalls.get()).isEqualTo(after + 1);
        uncontended.get().close();
    }

    @Test
    void aYieldLastsLongerOnABackendWhoseAttemptsAreSlow() throws Exception {
        client.close();
        client = open(DEFAULT_BACKOFF);
        // every attempt takes 40 ms, as on a contended Azure: longer than the minimum back-off
        backend.afterTake = r -> clock.jump(Duration.ofMillis(40));
        backend.afterRefuse = r -> clock.jump(Duration.ofMillis(40));
        takeAfterWaitingAndRelease("a", Duration.ofMillis(100));
        int before = backend.acquireCalls.get();
        CompletableFuture<LockHandle> again = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        pass(Duration.ofMillis(80), Duration.ofMillis(5));
        assertThat(backend.acquireCalls.get())
                .as("80 ms in, the yield (2-2.5 back-offs of 10 ms and two 40 ms attempts) still lasts")
                .isEqualTo(before);
        pass(Duration.ofMillis(100), Duration.ofMillis(5));
        again.get(10, TimeUnit.SECONDS).close();
        assertThat(backend.acquireCalls.get())
                .as("then it tries once, and gets it")
                .isEqualTo(before + 1);
    }

    @Test
    void aLongerWaiterPollsMoreOftenUntilItHasWaitedALease() throws Exception {
        client.close();
        client = open(DEFAULT_BACKOFF);
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter =
                client.lock("a").withLease(Duration.ofSeconds(5)).acquireAsync(Duration.ofSeconds(30));
        int start = backend.acquireCalls.get();
        pass(Duration.ofMillis(250), Duration.ofMillis(5));
        int firstQuarter = backend.acquireCalls.get() - start;
        pass(Duration.ofMillis(750), Duration.ofMillis(5));
        int atOne = backend.acquireCalls.get();
        pass(Duration.ofSeconds(1), Duration.ofMillis(5));
        int secondSecond = backend.acquireCalls.get() - atOne;
        pass(Duration.ofMillis(3500), Duration.ofMillis(5));
        int atFiveAndAHalf = backend.acquireCalls.get();
        pass(Duration.ofSeconds(2), Duration.ofMillis(5));
        int afterALease = backend.acquireCalls.get() - atFiveAndAHalf;
        assertThat(firstQuarter).as("a new waiter backs off: 10 ms, doubling").isBetween(3, 10);
        assertThat(secondSecond)
                .as("after 1 s its back-off has shrunk to the minimum, 5-10 ms")
                .isGreaterThanOrEqualTo(80);
        assertThat(afterALease)
                .as("once it has waited a whole lease (5 s) the holder is renewing: back to 1 s")
                .isLessThanOrEqualTo(6);
        waiter.cancel(false);
        holder.close();
    }

    @Test
    void waitersWithReleaseSignalsSleepThroughTheHoldersLeaseInsteadOfPolling() throws Exception {
        backend.signals = true;
        backend.holderLeft = Duration.ofSeconds(20);
        client.close();
        client = open(FAST_BACKOFF);
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        List<CompletableFuture<LockHandle>> waiters = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            waiters.add(client.lock("a").acquireAsync(Duration.ofSeconds(30)));
        }
        // one attempt each, and a second one for those that joined before the subscription was in effect
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.acquireCalls.get() >= 102);
        settle();
        assertThat(backend.listeners.get("a"))
                .as("one backend subscription shared by the client's 100 waiters")
                .hasSize(1);
        int settled = backend.acquireCalls.get();
        pass(Duration.ofMillis(900), Duration.ofMillis(20));
        assertThat(backend.acquireCalls.get())
                .as("no attempt in 0.9 s of back-off ticks")
                .isEqualTo(settled);
        pass(Duration.ofMillis(300), Duration.ofMillis(20));
        assertThat(backend.acquireCalls.get() - settled)
                .as("then one fallback attempt per waiter a second, in case a signal was lost")
                .isBetween(1, 100);
        assertThat(settled)
                .as("about two attempts per waiter, not one per 5-20 ms back-off tick")
                .isLessThanOrEqualTo(300);
        holder.close();
        CompletableFuture<Object> first = CompletableFuture.anyOf(waiters.toArray(CompletableFuture[]::new));
        LockHandle next = (LockHandle) first.get(10, TimeUnit.SECONDS);
        assertThat(next.isHeld()).as("a release wakes a waiter at once").isTrue();
        waiters.forEach(w -> w.cancel(false));
    }

    @Test
    void aKeysSubscriptionOutlivesItsLastWaiterBrieflySoThatTheNextWaitReusesIt() throws Exception {
        backend.signals = true;
        backend.holderLeft = Duration.ofSeconds(20);
        client.close();
        client = open(FAST_BACKOFF);
        for (int round = 0; round < 3; round++) {
            int before = backend.acquireCalls.get();
            LockHandle holder = client.lock("a").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> waiter = client.lock("a").acquireAsync(Duration.ofSeconds(30));
            // the holder's attempt, the waiter's, and its second one once it joined: it sleeps now
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> backend.acquireCalls.get() >= before + 3 && clock.pending() >= 2);
            settle();
            assertThat(backend.acquireCalls.get() - before)
                    .as("a backend that does not queue its waiters gets the second attempt, a poll, every time")
                    .isEqualTo(3);
            holder.close();
            waiter.get(10, TimeUnit.SECONDS).close();
        }
        assertThat(backend.subscribeCalls)
                .as("three waits in a row, each begun within a second of the last one's end, subscribe once")
                .hasValue(1);
        assertThat(backend.listeners.get("a")).as("kept between the waits").hasSize(1);
        pass(Duration.ofMillis(1200), Duration.ofMillis(50));
        await("closed a second after the last wait ended")
                .atMost(Duration.ofSeconds(10))
                .until(() -> backend.listeners.get("a").isEmpty());

        LockHandle holder = client.lock("b").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter = client.lock("b").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        !backend.listeners.getOrDefault("b", java.util.Set.of()).isEmpty());
        holder.close();
        waiter.get(10, TimeUnit.SECONDS).close();
        client.close();
        assertThat(backend.listeners.get("b"))
                .as("closing the client closes a kept subscription")
                .isEmpty();
    }

    @Test
    void aWaitOnAKeptSubscriptionAttemptsOnceUnlessAReleaseCameBetweenItsAttemptAndItsJoining() throws Exception {
        backend.signals = true;
        backend.holderLeft = Duration.ofSeconds(20);
        // a backend that names the next owner keeps its waiters in a queue, where a second
        // attempt could only be refused
        reopenWithEvents().get().released("another-key", "someone");
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> first = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.acquireCalls.get() >= 3 && clock.pending() >= 2);
        holder.close();
        first.get(10, TimeUnit.SECONDS).close(); // the key's subscription is kept

        int before = backend.acquireCalls.get();
        LockHandle second = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiting = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> backend.acquireCalls.get() >= before + 2 && clock.pending() >= 2);
        settle();
        assertThat(backend.acquireCalls.get())
                .as("one attempt: the kept subscription heard every release since it was sent")
                .isEqualTo(before + 2);
        second.close();
        waiting.get(10, TimeUnit.SECONDS).close();

        LockHandle third = client.lock("a").acquire(Duration.ZERO);
        backend.afterRefuse = request -> {
            backend.afterRefuse = null;
            third.close(); // released after the attempt found it held, before the waiter joined
        };
        CompletableFuture<LockHandle> late = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        assertThat(late.get(10, TimeUnit.SECONDS).isHeld())
                .as("a release between the attempt and joining the kept subscription is not slept through")
                .isTrue();
        late.get().close();
    }

    @Test
    void backendFailuresAreRetriedAndReportedAtTheDeadline() {
        backend.failing = true;
        CompletableFuture<LockHandle> waiter =
                CompletableFuture.supplyAsync(() -> client.lock("a").acquire(Duration.ofMillis(200)));
        await().atMost(Duration.ofSeconds(10)).until(() -> clock.pending() >= 2);
        pass(Duration.ofMillis(205), Duration.ofMillis(5));
        assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(LockBackendException.class)
                .cause()
                .hasMessageContaining("'a'")
                .hasMessageContaining("unreachable");
        assertThat(backend.acquireCalls.get()).as("retried").isGreaterThan(2);
        assertThatThrownBy(() -> client.lock("a").tryAcquire()).isInstanceOf(LockBackendException.class);
    }

    @Test
    void interruptStopsTheWaitKeepsTheFlagAndLeaksNothing() throws Exception {
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            try {
                client.lock("a").acquire(Duration.ofSeconds(60));
            } catch (RuntimeException e) {
                thrown.set(e);
                flagKept.set(Thread.currentThread().isInterrupted());
            }
        });
        waiter.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.acquireCalls.get() >= 2 && clock.pending() >= 2);
        waiter.interrupt();
        waiter.join(10_000);
        assertThat(thrown.get()).isInstanceOf(LockInterruptedException.class).hasMessageContaining("'a'");
        assertThat(flagKept).isTrue();
        int calls = backend.acquireCalls.get();
        holder.close();
        assertThat(backend.owners).as("nothing taken after the interrupt").isEmpty();
        pass(Duration.ofSeconds(1), Duration.ofMillis(5));
        assertThat(backend.acquireCalls.get())
                .as("no attempt after the interrupt")
                .isEqualTo(calls);
    }

    @Test
    void cancelStopsTheWaitAndARacedGrantIsReleased() throws Exception {
        backend.stallAcquire = new CountDownLatch(1);
        CompletableFuture<LockHandle> pending = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        assertThat(backend.stalled.await(10, TimeUnit.SECONDS)).isTrue();
        pending.cancel(false);
        backend.stallAcquire.countDown(); // the attempt in flight now grants the lock
        backend.stallAcquire = null;
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.releaseCalls.get() == 1);
        assertThat(backend.owners).as("the raced grant was given back").isEmpty();
        assertThatThrownBy(pending::join).isInstanceOf(CancellationException.class);
    }

    @Test
    void aGrantThatArrivesAfterItsLeaseRanOutIsGivenBackNotHandedOut() throws Exception {
        backend.stallAcquire = new CountDownLatch(1);
        CompletableFuture<java.util.Optional<LockHandle>> attempt = CompletableFuture.supplyAsync(
                () -> client.lock("slow").withLease(Duration.ofMillis(50)).tryAcquire());
        assertThat(backend.stalled.await(10, TimeUnit.SECONDS)).isTrue();
        clock.advance(Duration.ofMillis(200)); // outlast the lease
        CountDownLatch stall = backend.stallAcquire;
        backend.stallAcquire = null;
        stall.countDown();
        LockHandle h = attempt.get(10, TimeUnit.SECONDS).orElseThrow();
        assertThat(backend.releaseCalls).as("the late grant was released").hasValue(1);
        assertThat(h.fencingToken())
                .as("the handle is the retry's grant, not the late one")
                .isEqualTo(2);
        h.close();
    }

    @Test
    void aBackendsRenewalBatchLimitSplitsATickAndEachCallIsCreditedFromItsOwnSending() {
        client.close();
        Duration lease = Duration.ofSeconds(15);
        client = open(LockOptions.builder().lease(lease).build());
        backend.renewalBatchLimit = 2;
        List<Long> sentAt = java.util.Collections.synchronizedList(new ArrayList<>());
        backend.renewHook = leases -> {
            sentAt.add(clock.nanoTime());
            clock.jump(Duration.ofSeconds(1)); // one request per lease: each call takes a while
            return java.util.Collections.nCopies(leases.size(), io.locksmith.spi.RenewOutcome.RENEWED);
        };
        List<DefaultLockHandle> handles = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            handles.add((DefaultLockHandle) client.lock("n" + i).acquire(Duration.ZERO));
        }
        pass(Duration.ofSeconds(5), Duration.ofMillis(100)); // the first tick, at 5 s
        assertThat(List.copyOf(backend.renewBatchSizes))
                .as("one tick, in calls of 2")
                .containsExactly(2, 2, 2);
        assertThat(sentAt).hasSize(3);
        List<Long> expected = new ArrayList<>();
        for (long sent : sentAt) {
            expected.add(sent + lease.toNanos());
            expected.add(sent + lease.toNanos());
        }
        assertThat(handles.stream().map(DefaultLockHandle::deadlineNanos).toList())
                .as("each lease counts from the call that renewed it, sent 0, 1 and 2 s into the tick")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(sentAt.get(2) - sentAt.get(0))
                .isEqualTo(Duration.ofSeconds(2).toNanos());
        handles.forEach(LockHandle::close);
    }

    @Test
    void renewalRenewsAThousandLocksInOneCallPerTick() {
        client.close();
        client = open(LockOptions.builder().lease(Duration.ofMillis(600)).build());
        List<LockHandle> handles = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            handles.add(client.lock("n" + i).acquire(Duration.ZERO));
            if (i % 100 == 99) {
                pass(Duration.ofMillis(10), Duration.ofMillis(10)); // taken over 100 ms, as on a busy machine
            }
        }
        // locks taken apart fall into step within two ticks of the last acquisition, and from then
        // on each tick renews them all
        pass(Duration.ofMillis(1200), Duration.ofMillis(10));
        assertThat(handles).allMatch(LockHandle::isHeld);
        List<Integer> sizes = List.copyOf(backend.renewBatchSizes);
        assertThat(sizes.size())
                .as("ticks in 1.3 s of 200 ms renewals; batches %s", sizes)
                .isBetween(6, 12);
        assertThat(sizes.subList(sizes.size() - 3, sizes.size()))
                .as("every tick once in step renews all 1,000;" + " batches %s", sizes)
                .containsOnly(1000);
    }

    @Test
    void failingRenewalsLoseTheLockWhenTheLeaseRunsOut() {
        client.close();
        client = open(LockOptions.builder().lease(Duration.ofMillis(300)).build());
        LockHandle h = client.lock("a").acquire(Duration.ZERO);
        AtomicInteger calls = new AtomicInteger();
        h.onLost(calls::incrementAndGet);
        backend.failing = true;
        pass(Duration.ofMillis(295), Duration.ofMillis(5));
        assertThat(h.isHeld())
                .as("held until its lease runs out, though renewals fail")
                .isTrue();
        pass(Duration.ofMillis(10), Duration.ofMillis(5));
        await().atMost(Duration.ofSeconds(5)).until(() -> calls.get() == 1);
        assertThat(h.isHeld()).isFalse();
        assertThat(h.whenLost().toCompletableFuture().join()).isEqualTo(LossReason.LEASE_EXPIRED);
        assertThat(backend.renewCalls.get()).as("renewal was retried").isGreaterThan(1);
    }

    @Test
    void renewalThatFindsAnotherOwnerLosesAtOnce() {
        client.close();
        client = open(LockOptions.builder().lease(Duration.ofSeconds(3)).build());
        LockHandle h = client.lock("a").acquire(Duration.ZERO);
        backend.owners.put("a", "someone-else");
        pass(Duration.ofMillis(1000), Duration.ofMillis(100)); // the first renewal, a third of the lease in
        assertThat(h.isHeld())
                .as("lost at the first renewal, long before the lease ends")
                .isFalse();
        assertThat(h.whenLost().toCompletableFuture().join()).isEqualTo(LossReason.OWNERSHIP_LOST);
        h.close();
        assertThat(backend.owners).containsEntry("a", "someone-else");
    }

    @Test
    void eventsFromTheBackendLoseHandles() {
        AtomicReference<io.locksmith.spi.BackendEvents> sink = reopenWithEvents();
        LockHandle a = client.lock("a").acquire(Duration.ZERO);
        LockHandle b = client.lock("b").acquire(Duration.ZERO);
        sink.get().lost("a", backend.owners.get("a"), LossReason.OWNERSHIP_LOST);
        assertThat(a.isHeld()).isFalse();
        assertThat(b.isHeld()).isTrue();
        sink.get().allLost(LossReason.SESSION_LOST);
        assertThat(b.isHeld()).isFalse();
        assertThat(b.whenLost().toCompletableFuture().join()).isEqualTo(LossReason.SESSION_LOST);
    }

    @Test
    void callbackRegisteredAfterLossRunsAtOnceAndCallbacksRunOffTheCallersThread() throws Exception {
        AtomicReference<io.locksmith.spi.BackendEvents> sink = reopenWithEvents();
        LockHandle a = client.lock("a").acquire(Duration.ZERO);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(2);
        a.onLost(() -> {
            ranOn.set(Thread.currentThread());
            ran.countDown();
        });
        a.onLost(() -> {
            throw new IllegalStateException("a broken callback spoils no other");
        });
        sink.get().lost("a", backend.owners.get("a"), LossReason.OWNERSHIP_LOST);
        a.onLost(ran::countDown);
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ranOn.get()).isNotEqualTo(Thread.currentThread());
        assertThat(ranOn.get().getName()).startsWith("locksmith-");
    }

    @Test
    void queuedBackendsAreWaitedOnAndCancelledTicketsLeaveTheQueue() throws Exception {
        backend.queued = true;
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> first = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.waiting.size() == 1);
        CompletableFuture<LockHandle> second =
                CompletableFuture.supplyAsync(() -> client.lock("a").acquire(Duration.ofMillis(100)));
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.waiting.size() == 2);
        pass(Duration.ofMillis(100), Duration.ofMillis(10));
        assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(LockTimeoutException.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.cancelled.get() == 1);
        assertThat(backend.acquireCalls)
                .as("waiting does not poll a queueing backend")
                .hasValue(1);
        holder.close();
        backend.grantNext("a");
        assertThat(first.get(10, TimeUnit.SECONDS).isHeld()).isTrue();
    }

    @Test
    void leasesOutsideTheBackendsRangeAreRejected() {
        backend.minimumLease = Duration.ofSeconds(15);
        DistributedLock lock = client.lock("a");
        assertThatThrownBy(() -> lock.withLease(Duration.ofSeconds(5)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("5s")
                .hasMessageContaining("15s")
                .hasMessageContaining("test://backend");
    }

    @Test
    void javaLockAdapterIsThreadOwnedAndReentrant() throws Exception {
        Lock lock = client.lock("a").asLock();
        lock.lock();
        assertThat(lock.tryLock()).as("reentrant for the owner").isTrue();
        lock.unlock();
        AtomicBoolean otherGotIt = new AtomicBoolean(true);
        AtomicReference<Throwable> otherUnlock = new AtomicReference<>();
        Thread other = new Thread(() -> {
            otherGotIt.set(lock.tryLock());
            try {
                lock.unlock();
            } catch (IllegalMonitorStateException e) {
                otherUnlock.set(e);
            }
        });
        other.start();
        other.join(10_000);
        assertThat(otherGotIt).isFalse();
        assertThat(otherUnlock.get()).isInstanceOf(IllegalMonitorStateException.class);
        assertThat(backend.owners).hasSize(1);
        lock.unlock();
        assertThat(backend.owners).as("released on the last unlock").isEmpty();
        assertThat(lock.tryLock(1, TimeUnit.SECONDS)).isTrue();
        lock.unlock();
        assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void closingTheClientReleasesHandlesAndClosesTheBackend() {
        DistributedLock lockOfClosedClient = client.lock("a");
        LockHandle h = lockOfClosedClient.acquire(Duration.ZERO);
        client.close();
        assertThat(h.isHeld()).isFalse();
        assertThat(backend.owners).isEmpty();
        assertThat(backend.closed).isTrue();
        assertThatThrownBy(() -> client.lock("b"))
                .isInstanceOf(io.locksmith.LockClientClosedException.class)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot use lock 'b': the lock client for" + " test://backend is closed");
        assertThatThrownBy(() -> lockOfClosedClient.tryAcquire())
                .isInstanceOf(io.locksmith.LockClientClosedException.class)
                .hasMessageContaining("'a'")
                .hasMessageContaining("test://backend");
    }
}
