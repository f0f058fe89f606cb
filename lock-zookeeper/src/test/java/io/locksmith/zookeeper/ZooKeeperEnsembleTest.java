package io.locksmith.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import io.locksmith.LockException;
import io.locksmith.LockHandle;
import io.locksmith.testing.TcpProxy;
import io.locksmith.testing.TestCluster;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Faults of a 3-member ensemble: a leader that dies, a client cut off past its session. */
class ZooKeeperEnsembleTest {

    private static TestCluster ensemble;

    @BeforeAll
    static void start() {
        ensemble = TestServers.zookeeperEnsemble();
    }

    @Test
    void killingTheLeaderKeepsOneHolderAtATimeAndWaitersProceed() throws Exception {
        // a session long enough to outlive an election on two loaded cores, so holders can keep their locks
        String uri = ensemble.uri() + "?lease=8s&connection-timeout=4s";
        List<LockClient> clients = List.of(LockClient.open(uri), LockClient.open(uri), LockClient.open(uri));
        AtomicReference<LockHandle> holder = new AtomicReference<>();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger grants = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        TestServer leader = ensemble.leader();
        try {
            LockHandle kept = clients.get(0).lock("ens-kept").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> waiter =
                    clients.get(1).lock("ens-kept").acquireAsync(Duration.ofSeconds(90));
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                LockClient client = clients.get(t % clients.size());
                workers.add(pool.submit(() -> {
                    while (!stop.get()) {
                        try (LockHandle h = client.lock("ens-counted").acquire(Duration.ofSeconds(30))) {
                            LockHandle before = holder.getAndSet(h);
                            if (before != null && before.isHeld()) {
                                overlaps.incrementAndGet(); // two handles that both say they hold the lock
                            }
                            grants.incrementAndGet();
                            holder.compareAndSet(h, null);
                        } catch (LockException e) {
                            // the election makes calls fail for a while; waiting again is what users do
                        }
                    }
                    return null;
                }));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> grants.get() >= 20);
            leader.kill();
            int atKill = grants.get();
            await().atMost(Duration.ofSeconds(60)).until(() -> grants.get() >= atKill + 20);
            stop.set(true);
            for (Future<?> w : workers) {
                w.get(60, TimeUnit.SECONDS);
            }
            assertThat(overlaps.get())
                    .as("overlapping holders of one lock across a leader's death")
                    .isZero();
            assertThat(waiter)
                    .as("the waiter must not be granted while the holder holds")
                    .isNotDone();
            if (kept.isHeld()) {
                kept.close();
            }
            LockHandle next = waiter.get(30, TimeUnit.SECONDS);
            assertThat(next.isHeld())
                    .as("the waiter proceeds once the kept lock is released or lost")
                    .isTrue();
            assertThat(next.fencingToken()).isGreaterThan(kept.fencingToken());
            next.close();
        } finally {
            stop.set(true);
            pool.shutdownNow();
            clients.forEach(LockClient::close);
            leader.restart();
        }
    }

    @Test
    void aClientCutOffPastItsSessionReportsTheLossBeforeAnotherClientIsGranted() throws Exception {
        List<TcpProxy> proxies = new ArrayList<>();
        for (TestServer member : ensemble.members()) {
            proxies.add(new TcpProxy(member.host(), member.port()));
        }
        String viaProxies =
                "zookeeper://" + proxies.stream().map(TcpProxy::address).collect(Collectors.joining(","))
                        + "?lease=3s&connection-timeout=2s";
        AtomicLong lostAt = new AtomicLong();
        AtomicLong grantedAt = new AtomicLong();
        try (LockClient cutOff = LockClient.open(viaProxies);
                LockClient other = LockClient.open(ensemble.uri())) {
            LockHandle held = cutOff.lock("partitioned").acquire(Duration.ZERO);
            held.onLost(() -> lostAt.compareAndSet(0, System.nanoTime()));
            CompletableFuture<LockHandle> next = other.lock("partitioned").acquireAsync(Duration.ofSeconds(60));
            next.thenAccept(h -> grantedAt.set(System.nanoTime()));
            proxies.forEach(TcpProxy::cut);
            LockHandle granted = next.get(40, TimeUnit.SECONDS);
            assertThat(lostAt.get())
                    .as("the cut-off holder must have reported the loss")
                    .isNotZero();
            assertThat(lostAt.get() - grantedAt.get())
                    .as("loss reported before the other client was granted")
                    .isNegative();
            assertThat(held.isHeld()).isFalse();
            assertThat(granted.fencingToken()).isGreaterThan(held.fencingToken());
            granted.close();
        } finally {
            proxies.forEach(TcpProxy::close);
        }
    }
}
