package io.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.DistributedLock;
import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
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

/** The core's machinery (waiting, renewal, loss, cancellation, interrupts) over {@link TestBackend}. */
class CoreTest {

    private final TestBackend backend = new TestBackend();
    private LockClient client = LockClient.of(backend::attach, LockOptions.builder()
            .backoffMin(Duration.ofMillis(5)).backoffMax(Duration.ofMillis(20)).build());

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
    void prefixIsPutBeforeTheName() {
        client.close();
        client = LockClient.of(backend::attach, LockOptions.builder().prefix("billing").build());
        client.lock("order:1").acquire(Duration.ZERO);
        assertThat(backend.owners).containsOnlyKeys("billing:order:1");
    }

    @Test
    void waitingRetriesWithBackoffUntilTheDeadline() {
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        long start = System.nanoTime();
        assertThatThrownBy(() -> client.lock("a").acquire(Duration.ofMillis(300)))
                .isInstanceOf(LockTimeoutException.class)
                .hasMessageContaining("'a'").hasMessageContaining("300ms").hasMessageContaining("test://backend");
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(tookMillis).isBetween(250L, 5_000L);
        assertThat(backend.acquireCalls.get()).as("retried, with pauses").isBetween(4, 200);
        holder.close();
    }

    @Test
    void waiterTakesTheLockOnceFreed() throws Exception {
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        CompletableFuture<LockHandle> waiter = client.lock("a").acquireAsync(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.acquireCalls.get() >= 3);
        assertThat(waiter).isNotDone();
        holder.close();
        LockHandle next = waiter.get(10, TimeUnit.SECONDS);
        assertThat(next.fencingToken()).isGreaterThan(holder.fencingToken());
    }

    @Test
    void waitersWithReleaseSignalsSleepThroughTheHoldersLeaseInsteadOfPolling() throws Exception {
        backend.signals = true;
        backend.holderLeft = Duration.ofSeconds(20);
        client.close();
        client = LockClient.of(backend::attach, LockOptions.builder()
                .backoffMin(Duration.ofMillis(5)).backoffMax(Duration.ofMillis(20)).build());
        LockHandle holder = client.lock("a").acquire(Duration.ZERO);
        List<CompletableFuture<LockHandle>> waiters = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            waiters.add(client.lock("a").acquireAsync(Duration.ofSeconds(30)));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.acquireCalls.get() >= 201);
        assertThat(backend.listeners.get("a")).as("one backend subscription shared by the client's 100 waiters").hasSize(1);
        int settled = backend.acquireCalls.get();
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> backend.acquireCalls.get() == settled);
        assertThat(settled).as("about two attempts per waiter, not one per 5-20 ms back-off tick").isLessThanOrEqualTo(300);
        holder.close();
        CompletableFuture<Object> first = CompletableFuture.anyOf(waiters.toArray(CompletableFuture[]::new));
        LockHandle next = (LockHandle) first.get(10, TimeUnit.SECONDS);
        assertThat(next.isHeld()).as("a release wakes a waiter at once").isTrue();
        waiters.forEach(w -> w.cancel(false));
    }

    @Test
    void backendFailuresAreRetriedAndReportedAtTheDeadline() {
        backend.failing = true;
        assertThatThrownBy(() -> client.lock("a").acquire(Duration.ofMillis(200)))
                .isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'a'").hasMessageContaining("unreachable");
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
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.acquireCalls.get() >= 3);
        waiter.interrupt();
        waiter.join(10_000);
        assertThat(thrown.get()).isInstanceOf(LockInterruptedException.class).hasMessageContaining("'a'");
        assertThat(flagKept).isTrue();
        int calls = backend.acquireCalls.get();
        holder.close();
        assertThat(backend.owners).as("nothing taken after the interrupt").isEmpty();
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2))
                .until(() -> backend.acquireCalls.get() == calls);
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
        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // outlast the lease
        CountDownLatch stall = backend.stallAcquire;
        backend.stallAcquire = null;
        stall.countDown();
        LockHandle h = attempt.get(10, TimeUnit.SECONDS).orElseThrow();
        assertThat(backend.releaseCalls).as("the late grant was released").hasValue(1);
        assertThat(h.fencingToken()).as("the handle is the retry's grant, not the late one").isEqualTo(2);
        h.close();
    }

    @Test
    void renewalRenewsAThousandLocksInOneCallPerTick() {
        client.close();
        client = LockClient.of(backend::attach, LockOptions.builder().lease(Duration.ofMillis(600)).build());
        List<LockHandle> handles = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            handles.add(client.lock("n" + i).acquire(Duration.ZERO));
        }
        // on a busy machine the acquisitions span several ticks: locks taken apart fall into step
        // within two ticks of the last acquisition, and from then on each tick renews them all
        int acquired = backend.renewBatchSizes.size();
        await().atMost(Duration.ofSeconds(20)).until(() -> backend.renewBatchSizes.size() >= acquired + 4);
        assertThat(handles).allMatch(LockHandle::isHeld);
        List<Integer> sizes = List.copyOf(backend.renewBatchSizes);
        assertThat(sizes.subList(acquired + 2, sizes.size())).as("every tick once in step renews all 1,000; batches %s",
                sizes).containsOnly(1000);
    }

    @Test
    void failingRenewalsLoseTheLockWhenTheLeaseRunsOut() {
        client.close();
        client = LockClient.of(backend::attach, LockOptions.builder().lease(Duration.ofMillis(300)).build());
        LockHandle h = client.lock("a").acquire(Duration.ZERO);
        AtomicInteger calls = new AtomicInteger();
        h.onLost(calls::incrementAndGet);
        backend.failing = true;
        await().atMost(Duration.ofSeconds(5)).until(() -> calls.get() == 1);
        assertThat(h.isHeld()).isFalse();
        assertThat(h.whenLost().toCompletableFuture().join()).isEqualTo(LossReason.LEASE_EXPIRED);
        assertThat(backend.renewCalls.get()).as("renewal was retried").isGreaterThan(1);
    }

    @Test
    void renewalThatFindsAnotherOwnerLosesAtOnce() {
        client.close();
        client = LockClient.of(backend::attach, LockOptions.builder().lease(Duration.ofSeconds(3)).build());
        LockHandle h = client.lock("a").acquire(Duration.ZERO);
        backend.owners.put("a", "someone-else");
        await().atMost(Duration.ofSeconds(5)).until(() -> !h.isHeld());
        assertThat(h.whenLost().toCompletableFuture().join()).isEqualTo(LossReason.OWNERSHIP_LOST);
        h.close();
        assertThat(backend.owners).containsEntry("a", "someone-else");
    }

    @Test
    void eventsFromTheBackendLoseHandles() {
        AtomicReference<io.locksmith.spi.BackendEvents> sink = new AtomicReference<>();
        client.close();
        client = LockClient.of(context -> {
            sink.set(context.events());
            return backend.attach(context);
        }, LockOptions.defaults());
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
        AtomicReference<io.locksmith.spi.BackendEvents> sink = new AtomicReference<>();
        client.close();
        client = LockClient.of(context -> {
            sink.set(context.events());
            return backend.attach(context);
        }, LockOptions.defaults());
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
        assertThatThrownBy(() -> client.lock("a").acquire(Duration.ofMillis(100)))
                .isInstanceOf(LockTimeoutException.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.cancelled.get() == 1);
        assertThat(backend.acquireCalls).as("waiting does not poll a queueing backend").hasValue(1);
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
                .hasMessageContaining("5s").hasMessageContaining("15s").hasMessageContaining("test://backend");
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
        LockHandle h = client.lock("a").acquire(Duration.ZERO);
        client.close();
        assertThat(h.isHeld()).isFalse();
        assertThat(backend.owners).isEmpty();
        assertThat(backend.closed).isTrue();
        assertThatThrownBy(() -> client.lock("b")).isInstanceOf(IllegalStateException.class);
    }
}
