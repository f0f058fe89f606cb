package io.locksmith.etcd;

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
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.spi.RenewOutcome;
import io.locksmith.testing.TcpProxy;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Semaphores and read-write locks on a real etcd: the backend driven directly, then through the API. */
class EtcdSharedHoldsTest {

    private static final Duration LEASE = Duration.ofSeconds(4);
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static TestServer server;
    private static Opened one;
    private static Opened two;

    @BeforeAll
    static void connect() {
        server = TestServers.etcd();
        one = open();
        two = open();
    }

    @AfterAll
    static void disconnect() {
        one.close();
        two.close();
    }

    @Test
    void aSemaphoreAdmitsItsPermitsAndNoMoreWithTokensIncreasingAcrossPermits() {
        Hold three = Hold.permitOf(3);
        Grant a = grant(one.backend().tryAcquire(request("sem-basic", "a", three)));
        Grant b = grant(two.backend().tryAcquire(request("sem-basic", "b", three)));
        Grant c = grant(one.backend().tryAcquire(request("sem-basic", "c", three)));
        assertThat(two.backend().tryAcquire(request("sem-basic", "d", three)))
                .as("[etcd] semaphore: a fourth holder of three permits is refused")
                .isInstanceOf(Held.class);
        assertThat(two.backend().release(HeldLease.of(request("sem-basic", "b", three), b)))
                .isTrue();
        Grant d = grant(two.backend().tryAcquire(request("sem-basic", "d", three)));
        assertThat(new long[] {a.token(), b.token(), c.token(), d.token()})
                .as("[etcd] semaphore: tokens strictly increase in grant order across permits")
                .isSorted()
                .doesNotHaveDuplicates();
        assertThat(inspector().holders("sem-basic", Hold.Kind.PERMIT).orElseThrow())
                .extracting(h -> h.state().owner() + "@" + h.state().token())
                .as("[etcd] semaphore: the holders, with their grant tokens")
                .containsExactly("a@" + a.token(), "c@" + c.token(), "d@" + d.token());
    }

    @Test
    void aPermitOfAnotherNumberFailsFromATryAndFromTheQueueAndLeavesNoKey() {
        Grant held = grant(one.backend().tryAcquire(request("sem-mismatch", "a", Hold.permitOf(3))));
        assertThatThrownBy(() -> two.backend().tryAcquire(request("sem-mismatch", "b", Hold.permitOf(2))))
                .as("[etcd] semaphore: a try with another number names both")
                .isInstanceOf(PermitMismatchException.class)
                .satisfies(e -> assertThat(((PermitMismatchException) e).held()).isEqualTo(3))
                .satisfies(
                        e -> assertThat(((PermitMismatchException) e).asked()).isEqualTo(2));
        assertThatThrownBy(() ->
                        two.backend().queue().orElseThrow().enqueue(request("sem-mismatch", "c", Hold.permitOf(5))))
                .as("[etcd] semaphore: a queued acquisition with another number fails at once")
                .isInstanceOf(PermitMismatchException.class);
        grant(two.backend().tryAcquire(request("sem-mismatch", "d", Hold.permitOf(3))));
        grant(two.backend().tryAcquire(request("sem-mismatch", "e", Hold.permitOf(3))));
        assertThat(inspector().holders("sem-mismatch", Hold.Kind.PERMIT).orElseThrow())
                .as("[etcd] semaphore: the mismatched keys were deleted, they take no permit")
                .hasSize(3);
        one.backend().release(HeldLease.of(request("sem-mismatch", "a", Hold.permitOf(3)), held));
    }

    @Test
    void aRetriedAttemptOfAGrantedOwnerIsTheSameGrant() {
        Grant first = grant(one.backend().tryAcquire(request("sem-retry", "a", Hold.permitOf(1))));
        assertThat(grant(one.backend().tryAcquire(request("sem-retry", "a", Hold.permitOf(1))))
                        .token())
                .as("[etcd] semaphore: a retried attempt whose answer was lost gets the same token")
                .isEqualTo(first.token());
        Grant read = grant(one.backend().tryAcquire(request("rw-retry", "r", Hold.READ)));
        assertThat(grant(one.backend().tryAcquire(request("rw-retry", "r", Hold.READ)))
                        .token())
                .as("[etcd] read-write lock: the same for a reader")
                .isEqualTo(read.token());
    }

    @Test
    void theThreeFamiliesOfOneKeyNeverMeet() {
        String key = "x/:y !semaphore:%21 \u00e9";
        grant(one.backend().tryAcquire(AcquireRequest.of(key, key, "lock", LEASE)));
        grant(two.backend().tryAcquire(request(key, "permit", Hold.permitOf(1))));
        grant(two.backend().tryAcquire(request(key, "writer", Hold.WRITE)));
        assertThat(inspector().inspect(key).orElseThrow().owner())
                .as("[etcd] the lock's key is the lock's alone")
                .isEqualTo("lock");
        assertThat(inspector().holders(key, Hold.Kind.PERMIT).orElseThrow())
                .extracting(h -> h.state().owner())
                .containsExactly("permit");
        assertThat(inspector().holders(key, Hold.Kind.READ).orElseThrow())
                .extracting(h -> h.kind() + " " + h.state().owner())
                .containsExactly("WRITE writer");
    }

    @Test
    void readersShareAWaitingWriterGoesBeforeLaterReadersAndTokensIncreaseAcrossSides() throws Exception {
        Grant r1 = grant(one.backend().tryAcquire(request("rw-order", "r1", Hold.READ)));
        Grant r2 = grant(two.backend().tryAcquire(request("rw-order", "r2", Hold.READ)));
        QueuedAcquirer.Ticket writer =
                one.backend().queue().orElseThrow().enqueue(request("rw-order", "w", Hold.WRITE));
        QueuedAcquirer.Ticket reader =
                two.backend().queue().orElseThrow().enqueue(request("rw-order", "r3", Hold.READ));
        assertThat(two.backend().tryAcquire(request("rw-order", "r4", Hold.READ)))
                .as("[etcd] read-write lock: no new reader while a writer waits")
                .isInstanceOf(Held.class);
        one.backend().release(HeldLease.of(request("rw-order", "r1", Hold.READ), r1));
        assertThat(writer.granted())
                .as("[etcd] read-write lock: the writer waits for every reader")
                .isNotDone();
        two.backend().release(HeldLease.of(request("rw-order", "r2", Hold.READ), r2));
        Grant w = writer.granted().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(reader.granted())
                .as("[etcd] read-write lock: a reader queued behind the writer waits for it")
                .isNotDone();
        one.backend().release(HeldLease.of(request("rw-order", "w", Hold.WRITE), w));
        Grant r3 = reader.granted().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(new long[] {r1.token(), r2.token(), w.token(), r3.token()})
                .as("[etcd] read-write lock: tokens strictly increase across readers and writers")
                .isSorted()
                .doesNotHaveDuplicates();
        two.backend().release(HeldLease.of(request("rw-order", "r3", Hold.READ), r3));
    }

    @Test
    void oneReleaseLetsEveryPermitItFreesGoInQueueOrder() throws Exception {
        Hold two_ = Hold.permitOf(2);
        Grant a = grant(one.backend().tryAcquire(request("sem-queue", "a", two_)));
        Grant b = grant(one.backend().tryAcquire(request("sem-queue", "b", two_)));
        List<QueuedAcquirer.Ticket> waiting = new ArrayList<>();
        for (String owner : List.of("c", "d", "e")) {
            waiting.add(two.backend().queue().orElseThrow().enqueue(request("sem-queue", owner, two_)));
        }
        one.backend().release(HeldLease.of(request("sem-queue", "a", two_), a));
        Grant c = waiting.get(0).granted().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(waiting.get(1).granted())
                .as("[etcd] semaphore: one release frees one permit")
                .isNotDone();
        one.backend().release(HeldLease.of(request("sem-queue", "b", two_), b));
        Grant d = waiting.get(1).granted().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(waiting.get(2).granted()).isNotDone();
        assertThat(d.token())
                .as("[etcd] semaphore: a later grant has a greater token")
                .isGreaterThan(c.token());
        assertThat(c.token()).isGreaterThan(b.token());
        waiting.get(2).cancel();
        two.backend().release(HeldLease.of(request("sem-queue", "c", two_), c));
        two.backend().release(HeldLease.of(request("sem-queue", "d", two_), d));
    }

    @Test
    void extendingAPermitToALongerLeaseKeepsItsToken() {
        AcquireRequest permit = request("sem-extend", "a", Hold.permitOf(2));
        Grant a = grant(one.backend().tryAcquire(permit));
        assertThat(one.backend().renew(List.of(HeldLease.of(permit, a).withLease(LEASE.multipliedBy(2)))))
                .as("[etcd] semaphore: a renewal for a longer lease moves the permit's key")
                .containsExactly(RenewOutcome.RENEWED);
        assertThat(inspector().holders("sem-extend", Hold.Kind.PERMIT).orElseThrow())
                .extracting(h -> h.state().token())
                .as("[etcd] semaphore: the move's put keeps the grant's token")
                .containsExactly(a.token());
        assertThat(one.backend().release(HeldLease.of(permit, a)))
                .as("[etcd] semaphore: the moved permit is released")
                .isTrue();
    }

    @Test
    void aPermitThatRunsOutIsDeletedByLost() {
        AcquireRequest spent = request("sem-lost", "a", Hold.permitOf(1));
        Grant a = grant(one.backend().tryAcquire(spent));
        one.backend().lost(HeldLease.of(spent, a), LossReason.LEASE_EXPIRED);
        await("[etcd] semaphore: lost() deletes the permit's key, which the client's lease would keep")
                .atMost(WAIT)
                .until(() -> two.backend().tryAcquire(request("sem-lost", "b", Hold.permitOf(1))) instanceof Grant);
    }

    @Test
    void underContentionAcrossClientsNoMoreThanThePermitsHold() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                LockClient client = i % 2 == 0 ? one.client() : two.client();
                DistributedSemaphore semaphore = client.semaphore("sem-contended", 2);
                workers.add(pool.submit(() -> {
                    for (int round = 0; round < 4; round++) {
                        try (LockHandle h = semaphore.acquire(WAIT)) {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            Thread.onSpinWait();
                            inside.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> w : workers) {
                w.get(2 * WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(most.get())
                .as("[etcd] semaphore: at most 2 holders of 2 permits across clients")
                .isBetween(1, 2);
    }

    @Test
    void aReadWriteLockThroughTheApiAndARateLimiterGrantNoMoreThanItsPermitsPerWindow() {
        DistributedReadWriteLock rw = one.client().readWriteLock("rw-api");
        try (LockHandle r = rw.readLock().acquire(WAIT);
                LockHandle r2 = two.client().readWriteLock("rw-api").readLock().acquire(WAIT)) {
            assertThat(two.client().readWriteLock("rw-api").writeLock().tryAcquire())
                    .as("[etcd] read-write lock: no writer while readers hold")
                    .isEmpty();
        }
        try (LockHandle w = rw.writeLock().acquire(WAIT)) {
            assertThat(w.isHeld()).isTrue();
        }
        RateLimiter limiter = one.client().rateLimiter("rate", 2, Duration.ofSeconds(3));
        int granted = 0;
        for (int i = 0; i < 5; i++) {
            if (limiter.tryAcquire()) {
                granted++;
            }
        }
        assertThat(granted).as("[etcd] rate limiter: 2 per window").isEqualTo(2);
        assertThat(limiter.tryAcquire(WAIT))
                .as("[etcd] rate limiter: a permit comes back at the window's end")
                .isTrue();
    }

    @Test
    void aPermitAndAReaderAreRenewedPastThreeLeasesInOneBatch() {
        Duration lease = EtcdBackend.MINIMUM_LEASE;
        try (Opened short_ = open(server.host() + ":" + server.port(), lease);
                LockHandle permit = short_.client().semaphore("sem-renewed", 1).acquire(WAIT);
                LockHandle read =
                        short_.client().readWriteLock("rw-renewed").readLock().acquire(WAIT)) {
            long until = System.nanoTime() + 3 * lease.toNanos() + lease.toNanos() / 2;
            await("[etcd] renewal keeps a permit and a reader past three leases")
                    .atMost(WAIT)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        assertThat(permit.isHeld() && read.isHeld())
                                .as("[etcd] renewal: both still held")
                                .isTrue();
                        return System.nanoTime() > until;
                    });
            assertThat(two.client().semaphore("sem-renewed", 1).tryAcquire())
                    .as("[etcd] renewal: the renewed permit still keeps another client out")
                    .isEmpty();
            assertThat(two.client().readWriteLock("rw-renewed").writeLock().tryAcquire())
                    .as("[etcd] renewal: the renewed reader still keeps a writer out")
                    .isEmpty();
        }
    }

    @Test
    void aCrashedHoldersPermitAndReadReturnWithinTheLeaseAndAMargin() throws Exception {
        Duration lease = EtcdBackend.MINIMUM_LEASE;
        try (TcpProxy proxy = new TcpProxy(server.host(), server.port());
                Opened crashing = open(proxy.address(), lease)) {
            crashing.client().semaphore("sem-crash", 1).acquire(WAIT);
            crashing.client().readWriteLock("rw-crash").readLock().acquire(WAIT);
            proxy.cut();
            long cut = System.nanoTime();
            try (LockHandle permit = two.client().semaphore("sem-crash", 1).acquire(WAIT);
                    LockHandle write =
                            two.client().readWriteLock("rw-crash").writeLock().acquire(WAIT)) {
                Duration waited = Duration.ofNanos(System.nanoTime() - cut);
                assertThat(waited)
                        .as("[etcd] a crashed holder's permit and read come back within the lease and a margin")
                        .isLessThan(lease.plus(Duration.ofSeconds(8)));
            }
        }
    }

    @Test
    void aLeaderElectionNamesItsLeaderAndFailsOverWithAGreaterTerm() {
        try (LeaderElection alice = one.client().leaderElection("lead", "alice").start();
                LeaderElection bob = two.client().leaderElection("lead", "bob")) {
            assertThat(alice.awaitLeadership(WAIT))
                    .as("[etcd] election: the first to stand leads")
                    .isTrue();
            bob.start();
            assertThat(bob.leader())
                    .as("[etcd] election: the leader's identity is read from its key's owner")
                    .hasValue("alice");
            long first = alice.term().orElseThrow();
            alice.close();
            assertThat(bob.awaitLeadership(WAIT))
                    .as("[etcd] election: the other takes over when the leader resigns")
                    .isTrue();
            assertThat(bob.term().orElseThrow())
                    .as("[etcd] election: a later term is greater")
                    .isGreaterThan(first);
        }
    }

    private static LockInspector inspector() {
        return one.backend().inspector().orElseThrow();
    }

    private static Grant grant(AcquireResult result) {
        assertThat(result).as("[etcd] expected a grant").isInstanceOf(Grant.class);
        return (Grant) result;
    }

    private static AcquireRequest request(String key, String owner, Hold hold) {
        return AcquireRequest.of(key, key, owner, LEASE).withHold(hold);
    }

    private record Opened(LockClient client, LockBackend backend) implements AutoCloseable {
        @Override
        public void close() {
            client.close();
        }
    }

    // on a saturated machine a first connection has taken over the 2 s timeout: opening is retried
    private static Opened open() {
        return open(server.host() + ":" + server.port(), LEASE);
    }

    private static Opened open(String address, Duration lease) {
        LockOptions options = LockOptions.builder().lease(lease).build();
        String uri = "etcd://" + address + "?timeout=5s&namespace=shared-holds";
        AtomicReference<Opened> opened = new AtomicReference<>();
        await("[etcd] opening a backend")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> {
                    AtomicReference<LockBackend> backend = new AtomicReference<>();
                    LockClient client = LockClient.open(uri, options, b -> {
                        backend.set(b);
                        return b;
                    });
                    return opened.compareAndSet(null, new Opened(client, backend.get()));
                });
        return opened.get();
    }
}
