package io.locksmith.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LockTimeoutException;
import io.locksmith.LossReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MemoryLockTest {

    private final List<LockClient> clients = new ArrayList<>();

    private LockClient client(String uri) {
        LockClient c = LockClient.open(uri);
        clients.add(c);
        return c;
    }

    @AfterEach
    void closeClients() {
        clients.forEach(LockClient::close);
    }

    @Test
    void opensPrivateAndSharedStores() {
        LockClient a = client("memory://opens");
        LockClient b = client("memory://opens");
        LockClient own = client("memory:");
        try (LockHandle held = a.lock("x").tryAcquire().orElseThrow()) {
            assertThat(held.isHeld()).isTrue();
            assertThat(b.lock("x").tryAcquire())
                    .as("a client of the same group sees the lock")
                    .isEmpty();
            assertThat(own.lock("x").tryAcquire())
                    .as("a private store is separate")
                    .isPresent();
        }
        assertThat(b.lock("x").tryAcquire()).as("released locks are free").isPresent();
    }

    @Test
    void eightThreadsThousandAcquisitionsEachNeverOverlapAndTokensIncreaseInGrantOrder() throws Exception {
        LockClient one = client("memory://mutex");
        LockClient two = client("memory://mutex");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> tokens = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                DistributedLock lock = (t % 2 == 0 ? one : two).lock("order:1");
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 1000; i++) {
                        try (LockHandle h = lock.acquire(Duration.ofSeconds(30))) {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            tokens.add(h.fencingToken()); // safe only under mutual exclusion
                            inside.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(overlaps).as("holders at once").hasValue(0);
        assertThat(tokens).hasSize(8000);
        for (int i = 1; i < tokens.size(); i++) {
            assertThat(tokens.get(i)).as("token %d in grant order", i).isGreaterThan(tokens.get(i - 1));
        }
    }

    @Test
    void expiredLeaseIsLostOnceAndClosingLeavesTheNextOwnersLock() {
        LockClient first = client("memory://expiry");
        LockClient second = client("memory://expiry");
        DistributedLock lock =
                first.lock("job").withLease(Duration.ofMillis(300)).withAutoRenew(false);
        LockHandle stale = lock.acquire(Duration.ZERO);
        AtomicInteger lostCalls = new AtomicInteger();
        stale.onLost(lostCalls::incrementAndGet);

        await().atMost(Duration.ofSeconds(5)).until(() -> lostCalls.get() == 1);
        assertThat(stale.isHeld()).isFalse();
        assertThat(stale.whenLost().toCompletableFuture().join()).isEqualTo(LossReason.LEASE_EXPIRED);

        LockHandle next = second.lock("job").acquire(Duration.ofSeconds(5));
        assertThat(next.fencingToken()).isGreaterThan(stale.fencingToken());
        stale.close();
        stale.close();
        assertThat(next.isHeld()).isTrue();
        assertThat(first.lock("job").tryAcquire())
                .as("the next owner's lock survived the stale close")
                .isEmpty();
        assertThat(lostCalls).as("loss callbacks run once").hasValue(1);
        next.close();
    }

    @Test
    void renewalKeepsALockPastThreeLeases() {
        LockClient c = client("memory://renewal");
        LockHandle h = c.lock("long-job").withLease(Duration.ofMillis(200)).acquire(Duration.ZERO);
        long until = System.nanoTime() + Duration.ofMillis(800).toNanos();
        while (System.nanoTime() < until) {
            assertThat(h.isHeld()).as("held while renewed").isTrue();
            LockSupportSleep.pause(20);
        }
        assertThat(client("memory://renewal").lock("long-job").tryAcquire()).isEmpty();
        h.close();
        assertThat(h.isHeld()).isFalse();
    }

    @Test
    void extendKeepsALockWithoutAutomaticRenewal() {
        LockClient c = client("memory://extend");
        LockHandle h = c.lock("x")
                .withLease(Duration.ofMillis(300))
                .withAutoRenew(false)
                .acquire(Duration.ZERO);
        h.extend(Duration.ofSeconds(30));
        assertThat(h.remainingLease()).isGreaterThan(Duration.ofSeconds(20));
        h.close();
        assertThatThrownBy(() -> h.extend(Duration.ofSeconds(1))).hasMessageContaining("released");
    }

    @Test
    void removedStateIsReportedAsLost() {
        LockClient c = client("memory://removed");
        LockHandle h = c.lock("x").withLease(Duration.ofMillis(300)).acquire(Duration.ZERO);
        MemoryStore.group("removed").remove("x");
        await().atMost(Duration.ofSeconds(5)).until(() -> !h.isHeld());
        assertThat(h.whenLost().toCompletableFuture().join()).isEqualTo(LossReason.OWNERSHIP_LOST);
    }

    @Test
    void waiterTimesOutAndIsWokenOnRelease() throws Exception {
        LockClient c = LockClient.open(
                "memory://wake",
                LockOptions.builder()
                        .backoffMin(Duration.ofSeconds(20))
                        .backoffMax(Duration.ofSeconds(20))
                        .build());
        clients.add(c);
        LockHandle holder = c.lock("x").acquire(Duration.ZERO);
        assertThatThrownBy(() -> c.lock("x").acquire(Duration.ofMillis(100)))
                .isInstanceOf(LockTimeoutException.class)
                .hasMessageContaining("'x'");

        var waiting = c.lock("x").acquireAsync(Duration.ofSeconds(30));
        CountDownLatch released = new CountDownLatch(1);
        long start = System.nanoTime();
        holder.close();
        released.countDown();
        LockHandle next = waiting.get(10, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("woken by the release signal, not the 20 s back-off")
                .isLessThan(Duration.ofSeconds(5));
        next.close();
    }

    @Test
    void closingTheClientReleasesItsLocks() {
        LockClient a = LockClient.open("memory://close");
        LockHandle h = a.lock("x").acquire(Duration.ZERO);
        a.close();
        assertThat(h.isHeld()).isFalse();
        assertThat(client("memory://close").lock("x").tryAcquire()).isPresent();
        assertThatThrownBy(() -> a.lock("y"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void statusShowsTheHolderTokenAndLease() {
        LockClient c = client("memory://status");
        assertThat(c.lock("s").status().state()).isEqualTo(io.locksmith.LockStatus.State.FREE);
        try (LockHandle h = c.lock("s").acquire(Duration.ZERO)) {
            io.locksmith.LockStatus status = client("memory://status").lock("s").status();
            assertThat(status.state()).isEqualTo(io.locksmith.LockStatus.State.HELD);
            assertThat(status.fencingToken()).hasValue(h.fencingToken());
            assertThat(status.owner())
                    .get()
                    .asString()
                    .startsWith(ProcessHandle.current().pid() + "-");
            assertThat(status.remainingLease()).get().matches(d -> d.compareTo(Duration.ofSeconds(29)) > 0);
        }
        assertThat(c.lock("s").status().state()).isEqualTo(io.locksmith.LockStatus.State.FREE);
    }

    @Test
    void tryAcquireWithWaitReturnsEmptyWhenStillHeld() {
        LockClient c = client("memory:");
        try (LockHandle h = c.lock("x").acquire(Duration.ZERO)) {
            Optional<LockHandle> none = c.lock("x").tryAcquire(Duration.ofMillis(50));
            assertThat(none).isEmpty();
            assertThat(h.isHeld()).isTrue();
        }
    }

    @Test
    void malformedMemoryUrisAndUnknownOptionsAreRejected() {
        for (String bad : List.of("memory:/x", "memory://bad name", "memory://a/b", "memory:x")) {
            assertThatThrownBy(() -> LockClient.open(bad))
                    .as(bad)
                    .isInstanceOf(io.locksmith.LockConfigurationException.class)
                    .hasMessageContaining("memory URI");
        }
        assertThatThrownBy(() -> LockClient.open("memory:?pool=3"))
                .isInstanceOf(io.locksmith.LockConfigurationException.class)
                .hasMessageContaining("'pool'")
                .hasMessageContaining("memory");
        try (LockClient c = LockClient.open("memory://opts?lease=2s&prefix=app")) {
            assertThat(c.options().lease()).isEqualTo(Duration.ofSeconds(2));
            assertThat(c.backend()).isEqualTo("memory://opts");
        }
    }

    /** A pause in a polling assertion loop, where time itself is what is observed. */
    static final class LockSupportSleep {
        static void pause(long millis) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
        }
    }
}
