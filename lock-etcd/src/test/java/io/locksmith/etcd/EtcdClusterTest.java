package io.locksmith.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import io.locksmith.LockException;
import io.locksmith.LockHandle;
import io.locksmith.testing.TestCluster;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A 3-member cluster losing its leader, then its quorum. */
class EtcdClusterTest {

    private static TestCluster cluster;
    private final List<TestServer> killed = new ArrayList<>();

    @BeforeAll
    static void start() {
        cluster = TestServers.etcdCluster();
    }

    @AfterEach
    void restartKilledMembers() {
        killed.forEach(TestServer::restart);
        killed.clear();
    }

    @Test
    void killingTheLeaderKeepsHoldersHoldingAndWaitersMovingWithoutOverlap() throws Exception {
        String uri = cluster.uri() + "?lease=6s&timeout=3s";
        try (LockClient a = LockClient.open(uri);
                LockClient b = LockClient.open(uri)) {
            LockHandle longHolder = a.lock("cluster-long").acquire(Duration.ZERO);
            AtomicInteger occupancy = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            AtomicInteger grants = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            List<Throwable> errors = new ArrayList<>();
            ExecutorService threads = Executors.newFixedThreadPool(4);
            CountDownLatch running = new CountDownLatch(4);
            for (int t = 0; t < 4; t++) {
                LockClient client = t % 2 == 0 ? a : b;
                threads.execute(() -> {
                    running.countDown();
                    while (!stop.get()) {
                        try (LockHandle h = client.lock("cluster-shared").acquire(Duration.ofSeconds(20))) {
                            if (occupancy.incrementAndGet() > 1) {
                                overlaps.incrementAndGet();
                            }
                            grants.incrementAndGet();
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // the work under the lock
                            occupancy.decrementAndGet();
                        } catch (LockException e) {
                            synchronized (errors) {
                                errors.add(e); // a call caught by the election may fail; it must not overlap
                            }
                        }
                    }
                });
            }
            running.await();
            await().atMost(Duration.ofSeconds(30)).until(() -> grants.get() >= 20);
            TestServer leader = cluster.leader();
            leader.kill();
            killed.add(leader);
            int atKill = grants.get();
            await().atMost(Duration.ofSeconds(60)).until(() -> grants.get() >= atKill + 50);
            stop.set(true);
            threads.shutdown();
            assertThat(threads.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
            assertThat(overlaps.get())
                    .as("holders at once while the leader died")
                    .isZero();
            // on a loaded machine the election can outlast the lease: then the loss must be reported
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> longHolder.isHeld()
                            || longHolder.whenLost().toCompletableFuture().isDone());
            longHolder.close();
        }
    }

    @Test
    void withoutAQuorumAcquisitionsFailClearlyWithinTheTimeoutAndNothingIsGrantedTwice() {
        // a timeout that a loaded machine's first connection fits in, still far below the bound below
        String uri = cluster.uri() + "?lease=4s&timeout=4s";
        try (LockClient a = LockClient.open(uri);
                LockClient b = LockClient.open(uri)) {
            LockHandle held = a.lock("quorum").acquire(Duration.ZERO);
            ConcurrentHashMap.KeySetView<Long, Boolean> tokens = ConcurrentHashMap.newKeySet();
            tokens.add(held.fencingToken());
            for (int i = 0; i < 2; i++) {
                TestServer m = cluster.member(i);
                m.kill();
                killed.add(m);
            }
            long start = System.nanoTime();
            assertThatThrownBy(() -> b.lock("quorum-free").acquire(Duration.ofSeconds(3)))
                    .isInstanceOf(LockException.class)
                    .satisfies(e -> assertThat(e.getMessage()).containsAnyOf("quorum", "quorum-free"));
            assertThatThrownBy(() -> b.lock("quorum").tryAcquire()).isInstanceOf(LockException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("both attempts, bounded by their timeouts")
                    .isLessThan(Duration.ofSeconds(20));
            await().atMost(Duration.ofSeconds(20)).until(() -> !held.isHeld());
            restartKilledMembers();
            LockHandle next = b.lock("quorum").acquire(Duration.ofSeconds(30));
            assertThat(tokens.add(next.fencingToken()))
                    .as("a token granted once")
                    .isTrue();
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            next.close();
            held.close();
        }
    }
}
