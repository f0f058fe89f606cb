package io.locksmith.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.DistributedLock;
import io.locksmith.DistributedReadWriteLock;
import io.locksmith.DistributedSemaphore;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockStatus;
import io.locksmith.PermitMismatchException;
import io.locksmith.RateLimiter;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Semaphores, read-write locks and rate limiters against a real ZooKeeper: the node layout, queue order, tokens. */
class ZooKeeperPrimitivesTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private static TestServer server;
    private static CuratorFramework admin;

    @BeforeAll
    static void connect() {
        server = TestServers.zookeeper();
        admin = ZooKeeperSubject.admin(server.host() + ":" + server.port());
    }

    @AfterAll
    static void disconnect() {
        admin.close();
    }

    private static LockClient client(String options) {
        return LockClient.open("zookeeper://" + server.host() + ":" + server.port() + options);
    }

    @Test
    void semaphoreAdmitsAtMostItsPermitsAcrossClientsAndTokensIncrease() throws Exception {
        List<LockClient> clients = List.of(client("?lease=10s"), client("?lease=10s"), client("?lease=10s"));
        ExecutorService pool = Executors.newFixedThreadPool(6);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ConcurrentLinkedQueue<String> broken = new ConcurrentLinkedQueue<>();
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < 6; w++) {
                DistributedSemaphore permits = clients.get(w % 3).semaphore("sem-contended", 2);
                workers.add(pool.submit(() -> {
                    long last = 0;
                    for (int i = 0; i < 8; i++) {
                        try (LockHandle h = permits.acquire(WAIT)) {
                            int now = inside.incrementAndGet();
                            most.accumulateAndGet(now, Math::max);
                            if (h.fencingToken() <= last) {
                                broken.add("token " + h.fencingToken() + " after " + last);
                            }
                            last = h.fencingToken();
                            Thread.sleep(5);
                            inside.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : workers) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
            clients.forEach(LockClient::close);
        }
        assertThat(most.get())
                .as("[zookeeper] semaphore: at most 2 holders at once across 3 clients")
                .isBetween(1, 2);
        assertThat(broken)
                .as("[zookeeper] semaphore: each worker's tokens increase")
                .isEmpty();
    }

    @Test
    void aPermitOfAnotherNumberFailsNamingBothWhileHeld() throws Exception {
        try (LockClient a = client("?lease=10s");
                LockClient b = client("?lease=10s")) {
            LockHandle held = a.semaphore("sem-mismatch", 2).acquire(WAIT);
            assertThatThrownBy(() -> b.semaphore("sem-mismatch", 3).tryAcquire())
                    .as("[zookeeper] semaphore: a one-shot attempt with another count fails")
                    .isInstanceOfSatisfying(PermitMismatchException.class, e -> {
                        assertThat(e.held()).isEqualTo(2);
                        assertThat(e.asked()).isEqualTo(3);
                    });
            assertThatThrownBy(() -> b.semaphore("sem-mismatch", 3).acquire(WAIT))
                    .as("[zookeeper] semaphore: a wait with another count fails at once")
                    .isInstanceOf(PermitMismatchException.class);
            assertThat(children(SharedPaths.parent(io.locksmith.spi.Hold.permitOf(1), "sem-mismatch")))
                    .as("[zookeeper] semaphore: the refused attempts leave no node")
                    .hasSize(1);
            held.close();
            try (LockHandle three = b.semaphore("sem-mismatch", 3).acquire(WAIT)) {
                assertThat(three.isHeld())
                        .as("[zookeeper] semaphore: with no holder, the next count wins")
                        .isTrue();
            }
        }
    }

    @Test
    void theThreeFamiliesOfOneNameNeverMeet() {
        try (LockClient a = client("?lease=10s");
                LockClient b = client("?lease=10s");
                LockClient c = client("?lease=10s")) {
            for (String name : List.of("x", ".semaphore", "%002Esemaphore", "東京")) {
                try (LockHandle lock = a.lock(name).acquire(WAIT);
                        LockHandle permit = b.semaphore(name, 1).acquire(WAIT);
                        LockHandle write = c.readWriteLock(name).writeLock().acquire(WAIT)) {
                    assertThat(List.of(lock.isHeld(), permit.isHeld(), write.isHeld()))
                            .as("[zookeeper] namespaces: lock, semaphore and write lock '%s' held at once", name)
                            .containsOnly(true);
                    assertThat(a.lock(name).status().owner())
                            .as("[zookeeper] namespaces: the lock's holder is the lock's")
                            .isPresent();
                }
            }
        }
    }

    @Test
    void aWaitingWriterGoesBeforeLaterReadersAndTokensFollowGrants() throws Exception {
        try (LockClient a = client("?lease=10s");
                LockClient b = client("?lease=10s");
                LockClient c = client("?lease=10s")) {
            DistributedReadWriteLock rw = a.readWriteLock("rw-order");
            LockHandle r1 = rw.readLock().acquire(WAIT);
            LockHandle r1b = c.readWriteLock("rw-order").readLock().acquire(WAIT);
            assertThat(r1b.isHeld()).as("[zookeeper] read-write: readers share").isTrue();
            CompletableFuture<LockHandle> writer =
                    b.readWriteLock("rw-order").writeLock().acquireAsync(WAIT);
            await().atMost(WAIT)
                    .until(() -> children(SharedPaths.parent(io.locksmith.spi.Hold.READ, "rw-order")).stream()
                            .anyMatch(n -> n.contains("write-")));
            CompletableFuture<LockHandle> laterReader =
                    c.readWriteLock("rw-order").readLock().acquireAsync(WAIT);
            await().atMost(WAIT)
                    .until(() -> children(SharedPaths.parent(io.locksmith.spi.Hold.READ, "rw-order"))
                                    .size()
                            == 4);
            assertThat(b.readWriteLock("rw-order").writeLock().tryAcquire())
                    .as("[zookeeper] read-write: a writer is kept out by readers")
                    .isEmpty();
            assertThat(rw.holders())
                    .as("[zookeeper] read-write: two readers listed")
                    .hasSize(2);
            r1.close();
            r1b.close();
            LockHandle w = writer.get(20, TimeUnit.SECONDS);
            assertThat(w.fencingToken())
                    .as("[zookeeper] read-write: the writer's token follows the readers'")
                    .isGreaterThan(r1.fencingToken())
                    .isGreaterThan(r1b.fencingToken());
            assertThat(laterReader)
                    .as("[zookeeper] read-write: a reader queued behind a waiting writer waits for it")
                    .isNotDone();
            assertThat(rw.holders())
                    .as("[zookeeper] read-write: the writer alone is listed")
                    .singleElement()
                    .satisfies(s -> assertThat(s.fencingToken()).hasValue(w.fencingToken()));
            w.close();
            LockHandle r2 = laterReader.get(20, TimeUnit.SECONDS);
            assertThat(r2.fencingToken())
                    .as("[zookeeper] read-write: the later reader's token follows the writer's")
                    .isGreaterThan(w.fencingToken());
            r2.close();
        }
    }

    @Test
    void permitWaitersAreWokenByAnyReleaseAheadAndByTheGrantAheadOfThem() throws Exception {
        try (LockClient a = client("?lease=10s");
                LockClient b = client("?lease=10s")) {
            String parent = SharedPaths.parent(io.locksmith.spi.Hold.permitOf(1), "sem-wake");
            LockHandle first = a.semaphore("sem-wake", 2).acquire(WAIT);
            LockHandle second = a.semaphore("sem-wake", 2).acquire(WAIT);
            CompletableFuture<LockHandle> third = b.semaphore("sem-wake", 2).acquireAsync(WAIT);
            await().atMost(WAIT).until(() -> children(parent).size() == 3);
            // a waiter whose wait ends leaves a gap in the chain of watches
            assertThatThrownBy(() -> b.semaphore("sem-wake", 2).acquire(Duration.ofMillis(300)))
                    .as("[zookeeper] semaphore: a third and fourth holder wait")
                    .isInstanceOf(io.locksmith.LockTimeoutException.class);
            CompletableFuture<LockHandle> fourth = b.semaphore("sem-wake", 2).acquireAsync(WAIT);
            await().atMost(WAIT).until(() -> children(parent).size() == 4);
            second.close(); // not the lowest: the first waiter watches every node ahead of it
            LockHandle thirdHeld = third.get(20, TimeUnit.SECONDS);
            assertThat(fourth)
                    .as("[zookeeper] semaphore: one release lets one waiter in")
                    .isNotDone();
            first.close(); // the fourth was woken by the third's grant, and now watches both holders
            LockHandle fourthHeld = fourth.get(20, TimeUnit.SECONDS);
            assertThat(fourthHeld.fencingToken())
                    .as("[zookeeper] semaphore: tokens follow the grants")
                    .isGreaterThan(thirdHeld.fencingToken())
                    .isGreaterThan(second.fencingToken());
            thirdHeld.close();
            fourthHeld.close();
        }
    }

    @Test
    void permitsRenewPastThreeLeasesAndTheHolderIsListed() throws Exception {
        try (LockClient a = client("?lease=2s");
                LockClient b = client("?lease=2s")) {
            DistributedSemaphore sem = a.semaphore("sem-renew", 1);
            try (LockHandle held = sem.acquire(WAIT)) {
                long until = System.nanoTime() + Duration.ofSeconds(7).toNanos();
                while (System.nanoTime() < until) {
                    assertThat(b.semaphore("sem-renew", 1).tryAcquire())
                            .as("[zookeeper] semaphore: the permit stays held while renewed")
                            .isEmpty();
                    Thread.sleep(500);
                }
                assertThat(held.isHeld())
                        .as("[zookeeper] semaphore: renewed past three leases")
                        .isTrue();
                List<LockStatus> holders = b.semaphore("sem-renew", 1).holders();
                assertThat(holders)
                        .as("[zookeeper] semaphore: the holder is listed with its token")
                        .singleElement()
                        .satisfies(s -> assertThat(s.fencingToken()).hasValue(held.fencingToken()));
            }
        }
    }

    @Test
    void aClosedClientsPermitReturns() {
        try (LockClient b = client("?lease=2s")) {
            LockClient a = client("?lease=2s");
            a.semaphore("sem-crash", 1).acquire(WAIT);
            a.close(); // its session ends, and with it the permit's node
            try (LockHandle next = b.semaphore("sem-crash", 1).acquire(Duration.ofSeconds(6))) {
                assertThat(next.isHeld())
                        .as("[zookeeper] semaphore: the permit returned")
                        .isTrue();
            }
        }
    }

    @Test
    void aRateLimitersPermitsEndWithTheirWindowAndTheirNodesGo() {
        try (LockClient a = client("?lease=2s")) {
            RateLimiter limiter = a.rateLimiter("rate", 3, Duration.ofSeconds(2));
            int granted = 0;
            for (int i = 0; i < 5; i++) {
                if (limiter.tryAcquire()) {
                    granted++;
                }
            }
            assertThat(granted)
                    .as("[zookeeper] rate limiter: 3 grants in one window")
                    .isEqualTo(3);
            String parent = SharedPaths.parent(io.locksmith.spi.Hold.permitOf(1), "rate");
            await().atMost(WAIT)
                    .untilAsserted(() -> assertThat(children(parent))
                            .as("[zookeeper] rate limiter: the window's nodes are deleted at its end")
                            .isEmpty());
            assertThat(limiter.tryAcquire(WAIT))
                    .as("[zookeeper] rate limiter: a new window grants again")
                    .isTrue();
        }
    }

    @Test
    void aLeaderIsNamedAsGivenAndSucceededWhenItCloses() {
        try (LockClient a = client("?lease=2s");
                LockClient b = client("?lease=2s")) {
            io.locksmith.LeaderElection first =
                    a.leaderElection("leader", "host-a/東京").start();
            assertThat(first.awaitLeadership(WAIT))
                    .as("[zookeeper] leader: the only candidate is elected")
                    .isTrue();
            io.locksmith.LeaderElection second =
                    b.leaderElection("leader", "host-b").start();
            assertThat(second.leader())
                    .as("[zookeeper] leader: the leader's identity is read back as given")
                    .hasValue("host-a/東京");
            assertThat(second.isLeader())
                    .as("[zookeeper] leader: one leader at a time")
                    .isFalse();
            long term = first.term().orElseThrow();
            first.close();
            assertThat(second.awaitLeadership(WAIT))
                    .as("[zookeeper] leader: a successor once the leader resigns")
                    .isTrue();
            assertThat(second.term().orElseThrow())
                    .as("[zookeeper] leader: terms increase")
                    .isGreaterThan(term);
            second.close();
        }
    }

    @Test
    void sharedGrantsAreMarkedByAWriteWhoseZxidIsTheToken() throws Exception {
        try (LockClient a = client("?lease=10s")) {
            DistributedLock permit = a.semaphore("sem-token", 2);
            try (LockHandle h = permit.acquire(WAIT)) {
                String parent = SharedPaths.parent(io.locksmith.spi.Hold.permitOf(1), "sem-token");
                String node = children(parent).get(0);
                assertThat(node)
                        .as("[zookeeper] semaphore: the node names its permits")
                        .contains("-permit-2-");
                Stat stat = admin.checkExists().forPath(parent + "/" + node);
                assertThat(stat.getMzxid())
                        .as("[zookeeper] semaphore: the token is the granting write's zxid")
                        .isEqualTo(h.fencingToken())
                        .isGreaterThan(stat.getCzxid());
            }
        }
    }

    @Test
    void sharedNodeNamesParse() {
        assertThat(SharedPaths.parse("_c_0f8fad5b-d9cb-469f-a165-70867728950e-permit-12-0000000042"))
                .isEqualTo(new SharedPaths.Entry(
                        "_c_0f8fad5b-d9cb-469f-a165-70867728950e-permit-12-0000000042",
                        "_c_0f8fad5b-d9cb-469f-a165-70867728950e-",
                        io.locksmith.spi.Hold.Kind.PERMIT,
                        12,
                        42));
        assertThat(SharedPaths.parse("_c_0f8fad5b-d9cb-469f-a165-70867728950e-write-0000000007")
                        .kind())
                .isEqualTo(io.locksmith.spi.Hold.Kind.WRITE);
        assertThat(Optional.ofNullable(SharedPaths.parse("_c_0f8fad5b-d9cb-469f-a165-70867728950e-lock-0000000007")))
                .isEmpty();
        assertThat(Optional.ofNullable(
                        SharedPaths.parse("_c_0f8fad5b-d9cb-469f-a165-70867728950e-permit-0-0000000007")))
                .isEmpty();
    }

    private static List<String> children(String path) throws Exception {
        return admin.checkExists().forPath(path) == null
                ? List.of()
                : admin.getChildren().forPath(path);
    }
}
