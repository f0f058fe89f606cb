package io.locksmith.redis;

import static io.locksmith.redis.RedisTestBackends.lease;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.PermitMismatchException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.RenewOutcome;
import io.locksmith.spi.Ticker;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Semaphores and read-write locks on a real Redis server: the primitives, then through clients. */
class RedisSharedHoldsTest {

    private static TestServer server;
    private static RedisTestBackends.Opened opened;
    private static RedisBackend backend;
    private static RedisClient admin;
    private static StatefulRedisConnection<String, String> adminConnection;
    private static final AtomicInteger names = new AtomicInteger();

    @BeforeAll
    static void start() {
        server = TestServers.redis();
        opened = RedisTestBackends.open(server.uri(), Map.of());
        backend = opened.backend();
        admin = RedisClient.create(server.uri());
        adminConnection = admin.connect();
    }

    @AfterAll
    static void stop() {
        opened.close();
        adminConnection.close();
        admin.shutdown();
    }

    private static String key() {
        return "shared-" + names.incrementAndGet();
    }

    private static AcquireRequest request(String key, String owner, Hold hold) {
        return AcquireRequest.of(key, key, owner, Duration.ofSeconds(30)).withHold(hold);
    }

    private static long granted(AcquireRequest request) {
        AcquireResult result = backend.tryAcquire(request);
        assertThat(result)
                .as("[redis] %s of '%s' for %s should be granted", request.hold(), request.key(), request.owner())
                .isInstanceOf(Grant.class);
        return ((Grant) result).token();
    }

    private static void refused(AcquireRequest request) {
        assertThat(backend.tryAcquire(request))
                .as("[redis] %s of '%s' for %s should be refused", request.hold(), request.key(), request.owner())
                .isInstanceOf(Held.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"order:1", "a{b}c", "{", "}{", "東京", "x:semaphore", "x:lock"})
    void everyFamilyKeySharesTheLockSlotAndNoneIsAnotherFamilysKey(String key) {
        int slot = SlotHash.getSlot(RedisKeys.lock(key));
        List<String> all = new ArrayList<>(List.of(RedisKeys.lock(key), RedisKeys.fence(key)));
        for (RedisKeys.Shared shared : List.of(RedisKeys.semaphore(key), RedisKeys.readWrite(key))) {
            all.addAll(List.of(shared.holders(), shared.grants(), shared.fence()));
            if (shared.writers() != null) {
                all.add(shared.writers());
            }
        }
        for (String redisKey : all) {
            assertThat(SlotHash.getSlot(redisKey))
                    .as("[redis] key layout: %s shares the slot of the lock", redisKey)
                    .isEqualTo(slot);
        }
        assertThat(all).as("[redis] key layout: distinct keys for '%s'", key).doesNotHaveDuplicates();
    }

    @Test
    void aSemaphoreAdmitsItsPermitsWithIncreasingTokensAndRefusesAnotherNumber() {
        String key = key();
        long first = granted(request(key, "a", Hold.permitOf(2)));
        long second = granted(request(key, "b", Hold.permitOf(2)));
        refused(request(key, "c", Hold.permitOf(2)));
        assertThatThrownBy(() -> backend.tryAcquire(request(key, "d", Hold.permitOf(3))))
                .as("[redis] semaphore: another number of permits fails while the key has holders")
                .isInstanceOfSatisfying(PermitMismatchException.class, e -> {
                    assertThat(e.held()).isEqualTo(2);
                    assertThat(e.asked()).isEqualTo(3);
                });
        assertThat(granted(request(key, "a", Hold.permitOf(2))))
                .as("[redis] semaphore: a retried attempt of the holder is its grant, same token")
                .isEqualTo(first);
        assertThat(second).as("[redis] semaphore: tokens increase").isGreaterThan(first);
        assertThat(backend.release(lease(request(key, "a", Hold.permitOf(2)), first)))
                .isTrue();
        long third = granted(request(key, "c", Hold.permitOf(2)));
        assertThat(third).as("[redis] semaphore: tokens increase").isGreaterThan(second);
        backend.release(lease(request(key, "b", Hold.permitOf(2)), second));
        backend.release(lease(request(key, "c", Hold.permitOf(2)), third));
        assertThat(granted(request(key, "e", Hold.permitOf(5))))
                .as("[redis] semaphore: with no holders the next request sets the number")
                .isGreaterThan(third);
    }

    @Test
    void theThreeFamiliesOfOneKeyNeverAffectEachOther() {
        String key = key();
        granted(AcquireRequest.of(key, key, "lock", Duration.ofSeconds(30)));
        granted(request(key, "permit", Hold.permitOf(1)));
        granted(request(key, "writer", Hold.WRITE));
        refused(AcquireRequest.of(key, key, "lock2", Duration.ofSeconds(30)));
        refused(request(key, "permit2", Hold.permitOf(1)));
        refused(request(key, "writer2", Hold.WRITE));
        assertThat(backend.inspector().orElseThrow().inspect(key))
                .map(LockInspector.HolderState::owner)
                .as("[redis] namespaces: the lock's holder is the lock's")
                .contains("lock");
    }

    @Test
    void readersShareAndAWaitingWriterKeepsNewReadersOutUntilItIsGrantedOrAbandons() {
        String key = key();
        long r1 = granted(request(key, "r1", Hold.READ));
        long r2 = granted(request(key, "r2", Hold.READ));
        AcquireRequest writer = request(key, "w", Hold.WRITE);
        refused(writer);
        refused(request(key, "r3", Hold.READ));
        backend.release(lease(request(key, "r1", Hold.READ), r1));
        backend.release(lease(request(key, "r2", Hold.READ), r2));
        long w = granted(writer);
        assertThat(w).as("[redis] read-write: tokens increase across sides").isGreaterThan(r2);
        refused(request(key, "r3", Hold.READ));
        backend.release(lease(writer, w));
        granted(request(key, "r3", Hold.READ));
        refused(writer);
        refused(request(key, "r4", Hold.READ));
        backend.abandon(writer);
        granted(request(key, "r4", Hold.READ));
        assertThat(backend.inspector().orElseThrow().holders(key, Hold.Kind.WRITE))
                .map(list -> list.stream().map(h -> h.state().owner()).toList())
                .as("[redis] read-write: holders listed in grant order")
                .contains(List.of("r3", "r4"));
    }

    @Test
    void aMixedBatchIsRenewedInOneCallOwnerChecked() {
        String key = key();
        AcquireRequest lock = AcquireRequest.of(key, key, "l", Duration.ofSeconds(30));
        AcquireRequest permit = request(key, "p", Hold.permitOf(3));
        AcquireRequest reader = request(key, "r", Hold.READ);
        long lt = granted(lock);
        long pt = granted(permit);
        long rt = granted(reader);
        List<RenewOutcome> outcomes = backend.renew(List.of(
                lease(lock, lt).withLease(Duration.ofSeconds(60)),
                lease(permit, pt).withLease(Duration.ofSeconds(60)),
                lease(reader, rt).withLease(Duration.ofSeconds(60)),
                lease(request(key, "stranger", Hold.permitOf(3)), pt)));
        assertThat(outcomes)
                .as("[redis] renewal: a mixed batch")
                .containsExactly(
                        RenewOutcome.RENEWED, RenewOutcome.RENEWED, RenewOutcome.RENEWED, RenewOutcome.NOT_OWNED);
        assertThat(backend.inspector()
                        .orElseThrow()
                        .holders(key, Hold.Kind.PERMIT)
                        .orElseThrow())
                .singleElement()
                .satisfies(h -> assertThat(h.state().remaining())
                        .as("[redis] renewal: the permit's lease is the renewed one")
                        .isGreaterThan(Duration.ofSeconds(31)));
    }

    @Test
    void aPermitWhoseLeaseEndedIsFreeByTheServersClockAndCannotBeRenewedOrReleased() {
        String key = key();
        AcquireRequest shortLease =
                AcquireRequest.of(key, key, "gone", Duration.ofMillis(200)).withHold(Hold.permitOf(1));
        long token = granted(shortLease);
        refused(request(key, "next", Hold.permitOf(1)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        AcquireResult next;
        do {
            next = backend.tryAcquire(request(key, "next", Hold.permitOf(1)));
        } while (!(next instanceof Grant) && System.nanoTime() < deadline);
        assertThat(next)
                .as("[redis] semaphore: an ended lease frees its permit")
                .isInstanceOf(Grant.class);
        HeldLease ended = lease(shortLease, token);
        assertThat(backend.renew(List.of(ended))).containsExactly(RenewOutcome.NOT_OWNED);
        assertThat(backend.release(ended)).isFalse();
    }

    @Test
    void atMostItsPermitsHoldASemaphoreAcrossClientsUnderContention() throws Exception {
        String name = key();
        int permits = 3;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<LockClient> clients = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int c = 0; c < 4; c++) {
                clients.add(LockClient.open(server.uri(), LockOptions.defaults()));
            }
            List<Future<?>> done = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (int t = 0; t < 8; t++) {
                LockClient client = clients.get(t % clients.size());
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < 5; i++) {
                        try (LockHandle h = client.semaphore(name, permits).acquire(Duration.ofSeconds(30))) {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            Thread.sleep(5);
                            inside.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            clients.forEach(LockClient::close);
        }
        assertThat(most.get())
                .as("[redis] semaphore: at most %d holders at a time", permits)
                .isBetween(1, permits);
    }

    @Test
    void aReleaseOfASemaphoreWakesItsWaiterOnAnotherClient() throws Exception {
        String name = key();
        try (LockClient holder = LockClient.open(server.uri(), LockOptions.defaults());
                LockClient waiter = LockClient.open(server.uri(), LockOptions.defaults())) {
            LockHandle held = holder.semaphore(name, 1).acquire(Duration.ofSeconds(5));
            var waiting = waiter.semaphore(name, 1).acquireAsync(Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> adminConnection
                                    .sync()
                                    .pubsubNumsub(RedisKeys.channel(name))
                                    .get(RedisKeys.channel(name))
                            >= 1); // the waiter waits for a signal now: the subject is the wake-up
            long released = System.nanoTime();
            held.close();
            try (LockHandle got = waiting.get(30, TimeUnit.SECONDS)) {
                assertThat(Duration.ofNanos(System.nanoTime() - released))
                        .as("[redis] signals: a semaphore's waiter is woken by its release, not its back-off")
                        .isLessThan(Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void aWriterIsNotStarvedByOverlappingReaders() throws Exception {
        String name = key();
        try (LockClient readers = LockClient.open(server.uri(), LockOptions.defaults());
                LockClient writers = LockClient.open(server.uri(), LockOptions.defaults())) {
            var rw = readers.readWriteLock(name);
            LockHandle first = rw.readLock().acquire(Duration.ofSeconds(5));
            var writing = writers.readWriteLock(name).writeLock().acquireAsync(Duration.ofSeconds(30));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            Optional<LockHandle> late = Optional.empty();
            while (System.nanoTime() < deadline) {
                late = rw.readLock().tryAcquire();
                if (late.isEmpty()) {
                    break; // the writer's mark is there
                }
                late.get().close();
            }
            assertThat(late)
                    .as("[redis] read-write: a waiting writer keeps new readers out")
                    .isEmpty();
            first.close();
            try (LockHandle w = writing.get(30, TimeUnit.SECONDS)) {
                assertThat(w.isHeld()).isTrue();
            }
        }
    }

    @Test
    void heldPermitsAndSidesAreRenewedPastThreeLeases() throws Exception {
        String name = key();
        Duration lease = Duration.ofMillis(600);
        try (LockClient client = LockClient.open(server.uri(), LockOptions.defaults());
                LockClient other = LockClient.open(server.uri(), LockOptions.defaults())) {
            LockHandle permit = client.semaphore(name, 1).withLease(lease).acquire(Duration.ofSeconds(5));
            LockHandle reader =
                    client.readWriteLock(name).readLock().withLease(lease).acquire(Duration.ofSeconds(5));
            long until = System.nanoTime() + 3 * lease.toNanos() + TimeUnit.MILLISECONDS.toNanos(300);
            await().atMost(Duration.ofSeconds(30)).until(() -> System.nanoTime() >= until);
            assertThat(permit.isHeld() && reader.isHeld())
                    .as("[redis] renewal: held past three leases")
                    .isTrue();
            assertThat(other.semaphore(name, 1).tryAcquire())
                    .as("[redis] renewal: the renewed permit keeps others out")
                    .isEmpty();
            assertThat(other.readWriteLock(name).writeLock().tryAcquire())
                    .as("[redis] renewal: the renewed reader keeps writers out")
                    .isEmpty();
            permit.close();
            reader.close();
        }
    }

    @Test
    void aRateLimiterGrantsNoMoreThanItsPermitsPerWindow() {
        String name = key();
        int permits = 3;
        Duration per = Duration.ofMillis(500);
        List<Long> grants = new ArrayList<>(); // when each granted request was sent
        List<Long> answers = new ArrayList<>(); // and when its answer came
        try (LockClient client = LockClient.open(server.uri(), LockOptions.defaults())) {
            var limiter = client.rateLimiter(name, permits, per);
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1800);
            while (System.nanoTime() < end) {
                long before = System.nanoTime();
                if (limiter.tryAcquire()) {
                    grants.add(before);
                    answers.add(System.nanoTime());
                }
            }
        }
        // the server granted each between its sending and its answer, and a permit lasts a window
        // by the server's clock, read in whole milliseconds: grant i + permits is answered at
        // least a window after grant i was sent
        long window = per.toNanos() - TimeUnit.MILLISECONDS.toNanos(5);
        for (int i = 0; i + permits < grants.size(); i++) {
            assertThat(answers.get(i + permits) - grants.get(i))
                    .as("[redis] rate limiter: grant %d and grant %d within one window of %s", i, i + permits, per)
                    .isGreaterThanOrEqualTo(window);
        }
        assertThat(grants.size())
                .as("[redis] rate limiter: windows go by and grant again")
                .isGreaterThan(permits);
    }

    @Test
    void aMixedRenewalIsOneScriptCallOnTheServer() {
        String key = key();
        AcquireRequest lock = AcquireRequest.of(key, key, "l", Duration.ofSeconds(30));
        AcquireRequest permit = request(key, "p", Hold.permitOf(2));
        AcquireRequest writer = request(key + "-w", "w", Hold.WRITE);
        List<HeldLease> leases =
                List.of(lease(lock, granted(lock)), lease(permit, granted(permit)), lease(writer, granted(writer)));
        backend.renew(leases); // the server learns the script (EVALSHA, NOSCRIPT, EVAL) on its first use
        long before = scriptCalls();
        assertThat(backend.renew(leases)).containsOnly(RenewOutcome.RENEWED);
        assertThat(scriptCalls() - before)
                .as("[redis] renewal: one script call for a batch of every kind")
                .isEqualTo(1);
    }

    @Test
    void onAClusterAMixedBatchIsRenewedPerSlotWithEveryKindInItsSlot() {
        StatefulRedisConnection<String, String> c = admin.connect();
        RedisLink bySlot = new RedisLink(c, c.sync(), c.async(), c.sync(), admin::connectPubSub, () -> {}, true);
        try (RedisBackend clustered = new RedisBackend(
                bySlot,
                "redis (renewal batched by slot)",
                RedisSettings.DEFAULTS,
                RedisTestBackends.IGNORED,
                Ticker.SYSTEM)) {
            List<HeldLease> leases = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String key = key();
                AcquireRequest r =
                        request(key, "o" + i, i % 3 == 0 ? Hold.permitOf(2) : i % 3 == 1 ? Hold.READ : Hold.WRITE);
                AcquireResult result = clustered.tryAcquire(r);
                leases.add(lease(r, ((Grant) result).token()));
                AcquireRequest l = AcquireRequest.of(key, key, "lock" + i, Duration.ofSeconds(30));
                leases.add(lease(l, ((Grant) clustered.tryAcquire(l)).token()));
            }
            assertThat(clustered.renew(leases))
                    .as("[redis] renewal per slot: every kind renewed in its slot's call")
                    .hasSize(leases.size())
                    .containsOnly(RenewOutcome.RENEWED);
        }
    }

    private static long scriptCalls() {
        String stats = adminConnection.sync().info("commandstats");
        long calls = 0;
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                String field = line.substring(line.indexOf("calls=") + 6);
                calls += Long.parseLong(field.substring(0, field.indexOf(',')));
            }
        }
        return calls;
    }

    @Test
    void releaseAndAbandonAreOwnerCheckedAndAReadersRetryIsItsOwnGrant() {
        String key = key();
        AcquireRequest reader = request(key, "r", Hold.READ);
        long token = granted(reader);
        assertThat(granted(reader))
                .as("[redis] read-write: a retried attempt of the reader is its grant, same token")
                .isEqualTo(token);
        assertThat(backend.release(lease(request(key, "stranger", Hold.READ), token)))
                .as("[redis] read-write: another owner's release changes nothing")
                .isFalse();
        assertThat(backend.release(lease(reader, token + 1)))
                .as("[redis] read-write: a release under another token changes nothing")
                .isFalse();
        backend.abandon(request(key, "stranger", Hold.WRITE));
        backend.abandon(request(key, "stranger", Hold.permitOf(1)));
        refused(request(key, "w", Hold.WRITE));
        assertThat(backend.release(lease(reader, token)))
                .as("[redis] read-write: the reader's own release")
                .isTrue();
        backend.abandon(request(key, "w", Hold.WRITE));
        AcquireRequest permit = request(key, "p", Hold.permitOf(1));
        granted(permit);
        backend.abandon(permit);
        granted(request(key, "p2", Hold.permitOf(1)));
    }
}
