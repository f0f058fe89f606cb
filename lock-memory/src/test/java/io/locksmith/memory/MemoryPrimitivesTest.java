package io.locksmith.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.DistributedReadWriteLock;
import io.locksmith.DistributedSemaphore;
import io.locksmith.LeaderElection;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LossReason;
import io.locksmith.PermitMismatchException;
import io.locksmith.RateLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Semaphores, read-write locks, leader election and rate limiters on the memory backend, through the API. */
class MemoryPrimitivesTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final List<LockClient> clients = new ArrayList<>();
    private final List<MemoryFaults.Connection> connections = new ArrayList<>();

    private LockClient client(String group) {
        return client(group, LockOptions.defaults());
    }

    private LockClient client(String group, LockOptions options) {
        MemoryFaults.Connection c = MemoryFaults.connect(group, options);
        connections.add(c);
        clients.add(c.client());
        return c.client();
    }

    private MemoryFaults.Connection connection(LockClient client) {
        return connections.get(clients.indexOf(client));
    }

    @AfterEach
    void closeClients() {
        connections.forEach(MemoryFaults.Connection::restore);
        clients.forEach(LockClient::close);
    }

    @Test
    void aSemaphoreNeverHasMoreThanItsPermitsAcrossClientsUnderContention() throws Exception {
        List<LockClient> three = List.of(client("sem-n"), client("sem-n"), client("sem-n"));
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(9);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 9; t++) {
                DistributedSemaphore semaphore = three.get(t % 3).semaphore("pay", 3);
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        try (LockHandle h = semaphore.acquire(WAIT)) {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            Thread.yield();
                            inside.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(most.get())
                .as("[memory] semaphore: at most 3 holders of 3 permits at once across clients")
                .isBetween(1, 3);
    }

    @Test
    void aSemaphoresTokensIncreaseAcrossPermitsAndItsHoldersAreListed() {
        DistributedSemaphore a = client("sem-tokens").semaphore("s", 2);
        DistributedSemaphore b = client("sem-tokens").semaphore("s", 2);
        LockHandle first = a.tryAcquire().orElseThrow();
        LockHandle second = b.tryAcquire().orElseThrow();
        assertThat(b.tryAcquire())
                .as("[memory] semaphore: no third permit of 2")
                .isEmpty();
        assertThat(a.holders())
                .extracting(s -> s.fencingToken().orElseThrow())
                .as("[memory] semaphore: holders listed in grant order with their tokens")
                .containsExactly(first.fencingToken(), second.fencingToken());
        first.close();
        LockHandle third = a.tryAcquire().orElseThrow();
        assertThat(List.of(first.fencingToken(), second.fencingToken(), third.fencingToken()))
                .as("[memory] semaphore: tokens strictly increase across permits")
                .isSorted()
                .doesNotHaveDuplicates();
        second.close();
        third.close();
        assertThat(a.holders())
                .as("[memory] semaphore: released permits are gone")
                .isEmpty();
    }

    @Test
    void aPermitOfAnotherNumberFailsNamingBothNumbers() {
        LockHandle held = client("sem-mismatch").semaphore("backup", 2).acquire(WAIT);
        DistributedSemaphore other = client("sem-mismatch").semaphore("backup", 3);
        assertThatThrownBy(() -> other.acquire(WAIT))
                .as("[memory] semaphore: a mismatch ends the wait at once")
                .isInstanceOf(PermitMismatchException.class)
                .hasMessageContaining("'backup'")
                .hasMessageContaining("memory://sem-mismatch")
                .satisfies(e -> {
                    PermitMismatchException m = (PermitMismatchException) e;
                    assertThat(m.held()).isEqualTo(2);
                    assertThat(m.asked()).isEqualTo(3);
                });
        held.close();
        assertThat(other.tryAcquire())
                .as("[memory] semaphore: once free, the next acquisition sets the number")
                .isPresent();
    }

    @Test
    void aLockASemaphoreAndAReadWriteLockOfOneNameNeverMeet() {
        LockClient one = client("namespaces");
        LockClient two = client("namespaces");
        String name = "x:é/漢字 " + "k".repeat(900);
        try (LockHandle lock = one.lock(name).acquire(WAIT);
                LockHandle permit = one.semaphore(name, 1).acquire(WAIT);
                LockHandle writer = one.readWriteLock(name).writeLock().acquire(WAIT)) {
            assertThat(two.lock(name).tryAcquire())
                    .as("[memory] namespaces: the lock is held")
                    .isEmpty();
            assertThat(two.semaphore(name, 1).tryAcquire())
                    .as("[memory] namespaces: the semaphore is held")
                    .isEmpty();
            assertThat(two.readWriteLock(name).readLock().tryAcquire())
                    .as("[memory] namespaces: the read-write lock is held")
                    .isEmpty();
            assertThat(lock.isHeld() && permit.isHeld() && writer.isHeld()).isTrue();
        }
    }

    @Test
    void readersShareAWriterExcludesThemAndIsNotStarvedByLaterReaders() throws Exception {
        DistributedReadWriteLock one = client("rw").readWriteLock("prices");
        DistributedReadWriteLock two = client("rw").readWriteLock("prices");
        LockHandle r1 = one.readLock().acquire(WAIT);
        LockHandle r2 = two.readLock().acquire(WAIT);
        assertThat(r2.fencingToken()).isGreaterThan(r1.fencingToken());
        CompletableFuture<LockHandle> writer = two.writeLock().acquireAsync(WAIT);
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(one.readLock().tryAcquire())
                        .as("[memory] read-write lock: no new reader while a writer waits")
                        .isEmpty());
        assertThat(writer)
                .as("[memory] read-write lock: the writer waits for the readers")
                .isNotDone();
        CompletableFuture<LockHandle> laterReader = one.readLock().acquireAsync(WAIT);
        r1.close();
        r2.close();
        LockHandle w = writer.get(30, TimeUnit.SECONDS);
        assertThat(laterReader)
                .as("[memory] read-write lock: the writer is granted before the reader that came after it")
                .isNotDone();
        assertThat(one.holders())
                .extracting(s -> s.owner().orElseThrow())
                .as("[memory] read-write lock: the writer is the one holder")
                .hasSize(1);
        w.close();
        LockHandle r3 = laterReader.get(30, TimeUnit.SECONDS);
        assertThat(List.of(r1.fencingToken(), r2.fencingToken(), w.fencingToken(), r3.fencingToken()))
                .as("[memory] read-write lock: tokens strictly increase across readers and writers")
                .isSorted()
                .doesNotHaveDuplicates();
        r3.close();
    }

    @Test
    void aWriterThatGivesUpLetsReadersInAtOnce() {
        DistributedReadWriteLock one = client("rw-abandon").readWriteLock("table");
        DistributedReadWriteLock two = client("rw-abandon").readWriteLock("table");
        try (LockHandle reader = one.readLock().acquire(WAIT)) {
            assertThat(two.writeLock().tryAcquire()).isEmpty();
            assertThat(two.readLock().tryAcquire())
                    .as("[memory] read-write lock: a one-shot writer that found the key held leaves no mark")
                    .isPresent()
                    .hasValueSatisfying(LockHandle::close);
            assertThat(two.writeLock().tryAcquire(Duration.ofMillis(200))).isEmpty();
            assertThat(one.readLock().tryAcquire())
                    .as("[memory] read-write lock: nor does a writer whose wait timed out")
                    .isPresent()
                    .hasValueSatisfying(LockHandle::close);
            assertThat(reader.isHeld()).isTrue();
        }
    }

    @Test
    void permitsAndReadersRenewPastThreeLeases() {
        LockOptions brief = LockOptions.builder().lease(Duration.ofMillis(300)).build();
        LockClient holder = client("renew", brief);
        LockClient other = client("renew");
        LockHandle permit = holder.semaphore("s", 1).acquire(WAIT);
        LockHandle reader = holder.readWriteLock("rw").readLock().acquire(WAIT);
        await().during(Duration.ofMillis(1200)) // four leases of 300 ms: time is the subject
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> permit.isHeld() && reader.isHeld());
        assertThat(other.semaphore("s", 1).tryAcquire())
                .as("[memory] renewal: and the store still counts the permit")
                .isEmpty();
        assertThat(other.readWriteLock("rw").writeLock().tryAcquire())
                .as("[memory] renewal: and the reader")
                .isEmpty();
        permit.close();
        reader.close();
    }

    @Test
    void aCrashedHoldersPermitReturnsWithinItsLease() {
        Duration lease = Duration.ofMillis(500);
        LockClient crashed = client("crash", LockOptions.builder().lease(lease).build());
        LockClient survivor = client("crash");
        LockHandle lost = crashed.semaphore("s", 1).acquire(WAIT);
        connection(crashed).cut(); // renewals and the release now fail, as for a process that died
        long start = System.nanoTime();
        Optional<LockHandle> taken = survivor.semaphore("s", 1).tryAcquire(WAIT);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(taken).as("[memory] crash: the permit returns").isPresent();
        assertThat(tookMillis)
                .as("[memory] crash: within the lease (500 ms) plus a margin")
                .isLessThan(lease.toMillis() + 5_000);
        assertThat(taken.get().fencingToken()).isGreaterThan(lost.fencingToken());
        taken.get().close();
    }

    @Test
    void aRateLimiterNeverGrantsMoreThanItsPermitsInAnyWindow() {
        Duration per = Duration.ofMillis(300);
        RateLimiter one = client("rate").rateLimiter("api", 3, per);
        RateLimiter two = client("rate").rateLimiter("api", 3, per);
        // for grant i: sent[i] <= the store's grant time <= answered[i]; the permit of grant i
        // is held until its grant time + per, so grant i + 3 comes at least per after sent[i]
        List<Long> sent = new ArrayList<>();
        List<Long> answered = new ArrayList<>();
        long end = System.nanoTime() + Duration.ofMillis(1500).toNanos();
        for (int i = 0; System.nanoTime() - end < 0; i++) {
            long before = System.nanoTime();
            if ((i % 2 == 0 ? one : two).tryAcquire(WAIT)) {
                sent.add(before);
                answered.add(System.nanoTime());
            }
        }
        assertThat(sent.size())
                .as("[memory] rate limiter: a run of 5 windows grants in several of them")
                .isGreaterThan(6);
        for (int i = 0; i + 3 < sent.size(); i++) {
            assertThat(answered.get(i + 3) - sent.get(i))
                    .as(
                            "[memory] rate limiter: grants %d and %d, 4 grants of 3 per window, are a window apart",
                            i, i + 3)
                    .isGreaterThanOrEqualTo(per.toNanos());
        }
    }

    @Test
    void aLeaderIsSucceededAfterItsClientDiesAndIsToldItWasRevoked() throws Exception {
        Duration lease = Duration.ofMillis(500);
        LockOptions brief = LockOptions.builder().lease(lease).build();
        LockClient first = client("leader", brief);
        LockClient second = client("leader", brief);
        List<String> heard = new CopyOnWriteArrayList<>();
        CountDownLatch revoked = new CountDownLatch(1);
        LeaderElection a = first.leaderElection("scheduler", "host-a").addListener(new LeaderElection.Listener() {
            @Override
            public void revoked(long term, LossReason reason) {
                heard.add("revoked " + reason);
                revoked.countDown();
            }
        });
        a.start();
        assertThat(a.awaitLeadership(WAIT)).isTrue();
        long firstTerm = a.term().orElseThrow();
        LeaderElection b = second.leaderElection("scheduler", "host-b").start();
        assertThat(b.leader())
                .as("[memory] leader: the leader's identity is read back")
                .hasValue("host-a");
        assertThat(b.isLeader()).as("[memory] leader: one leader at a time").isFalse();
        connection(first).cut();
        assertThat(b.awaitLeadership(WAIT))
                .as("[memory] leader: a successor is elected")
                .isTrue();
        assertThat(b.term().orElseThrow())
                .as("[memory] leader: the new term is greater")
                .isGreaterThan(firstTerm);
        assertThat(revoked.await(30, TimeUnit.SECONDS))
                .as("[memory] leader: the old leader hears it was revoked")
                .isTrue();
        assertThat(a.isLeader()).isFalse();
        assertThat(b.leader()).hasValue("host-b");
        a.close();
        b.close();
    }
}
