package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The queue of waiters beside each lock: a released lock goes to the waiter that was waiting,
 * not back to the releasing client's next attempt; one-shot attempts never queue; a wait that
 * ends leaves the queue at once, and a waiter that died costs the next one at most its presence.
 */
class RedisFairQueueTest {

    private static final Duration PRESENCE = RedisSettings.DEFAULTS.presence();

    /**
     * Of 29 turns, how many may go back to the releaser (see the test): 3 did under stress-ng, where
     * the others' threads were descheduled for longer than a handoff; with the queue ignored by the
     * release and by attempts, 22 did.
     */
    private static final int MAX_TURNS_NOT_TAKEN = 5;

    private static TestServer server;
    private static RedisClient admin;
    private static StatefulRedisConnection<String, String> adminConnection;

    @BeforeAll
    static void connect() {
        server = TestServers.redis();
        admin = RedisClient.create(server.uri());
        adminConnection = admin.connect();
    }

    @AfterAll
    static void disconnect() {
        adminConnection.close();
        admin.shutdown();
    }

    @Test
    void clientsThatReleaseAndAskAgainAtOnceTakeTurnsWithTheOnesWaiting() throws Exception {
        String name = "fair-turns";
        int clients = 3;
        int rounds = 10;
        List<Integer> grants = new CopyOnWriteArrayList<>();
        List<LockClient> opened = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        CountDownLatch ready = new CountDownLatch(clients);
        AtomicInteger failures = new AtomicInteger();
        try {
            for (int c = 0; c < clients; c++) {
                opened.add(LockClient.open(server.uri()));
            }
            // the first client holds until the others wait, so that every turn starts with a queue
            LockHandle first = opened.get(0).lock(name).acquire(Duration.ZERO);
            for (int c = 0; c < clients; c++) {
                int me = c;
                LockClient client = opened.get(c);
                Thread t = new Thread(
                        () -> {
                            try {
                                ready.countDown();
                                for (int i = 0; i < rounds; i++) {
                                    try (LockHandle h = client.lock(name).acquire(Duration.ofSeconds(60))) {
                                        grants.add(me);
                                    } // released, and asked for again at once
                                }
                            } catch (RuntimeException e) {
                                failures.incrementAndGet();
                            }
                        },
                        "contender-" + c);
                threads.add(t);
            }
            threads.forEach(Thread::start);
            assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
            await("[redis] fair queue: the three contenders wait for a release signal")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> adminConnection.sync().pubsubNumsub(RedisKeys.channel(name)).values().stream()
                                    .mapToLong(Long::longValue)
                                    .sum()
                            == clients);
            first.close();
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(60));
            }
            assertThat(failures).as("[redis] fair queue: no wait failed").hasValue(0);
            assertThat(grants).hasSize(clients * rounds);
            // A grant that goes back to the client that released the one before, while another client still had
            // rounds to go, is a turn not taken. The queue makes that rare; it is not impossible on a busy host, where
            // a client's thread may be descheduled between its release and its next attempt, so that the releaser
            // finds nobody queued; a release that grants the next waiter in its own script makes a handoff shorter than
            // such a pause. Without the queue a client that asks again at once takes most turns.
            int[] granted = new int[clients];
            List<Integer> notTaken = new ArrayList<>();
            for (int i = 1; i < grants.size(); i++) {
                granted[grants.get(i - 1)]++;
                int releaser = grants.get(i - 1);
                boolean othersLeft = java.util.stream.IntStream.range(0, clients)
                        .anyMatch(c -> c != releaser && granted[c] < rounds);
                if (!othersLeft) {
                    break; // the others are done (a client slowed down on a busy host finishes alone)
                }
                if (grants.get(i) == releaser) {
                    notTaken.add(i);
                }
            }
            assertThat(notTaken)
                    .as(
                            "[redis] fair queue: grants of %s that went to the client that released the grant before"
                                    + " and asked again at once, not to a client that waited",
                            grants)
                    .hasSizeLessThanOrEqualTo(MAX_TURNS_NOT_TAKEN);
        } finally {
            opened.forEach(LockClient::close);
        }
    }

    @Test
    void aOneShotAttemptLeavesNoPlaceInTheQueueAndIsNotGrantedAKeyOwedToAWaiter() {
        String key = "fair-one-shot";
        try (RedisTestBackends.Opened opened = RedisTestBackends.open(server.uri(), Map.of())) {
            RedisBackend backend = opened.backend();
            AcquireRequest holder = RedisTestBackends.request(key, "holder");
            long token = RedisTestBackends.grant(backend, holder);
            assertThat(backend.tryAcquire(RedisTestBackends.request(key, "one-shot")))
                    .isInstanceOf(Held.class);
            assertThat(adminConnection
                            .sync()
                            .exists(RedisKeys.queue(key), RedisKeys.presence(key), RedisKeys.wake(key)))
                    .as("[redis] fair queue: a one-shot attempt that finds the key held leaves no queue")
                    .isZero();

            AcquireRequest waiter = RedisTestBackends.request(key, "waiter").waiting();
            assertThat(backend.tryAcquire(waiter)).isInstanceOf(Held.class);
            assertThat(adminConnection.sync().zrange(RedisKeys.queue(key), 0, -1))
                    .as("[redis] fair queue: a waiting attempt that finds the key held takes a place")
                    .containsExactly("waiter");
            assertThat(backend.release(RedisTestBackends.lease(holder, token))).isTrue();

            AcquireRequest late = RedisTestBackends.request(key, "late").waiting();
            assertThat(backend.tryAcquire(RedisTestBackends.request(key, "one-shot")))
                    .as("[redis] fair queue: a one-shot attempt is refused a free key owed to a live waiter")
                    .isInstanceOf(Held.class)
                    .satisfies(h -> assertThat(((Held) h).remainingLease())
                            .get()
                            .matches(d -> d.compareTo(Duration.ofSeconds(1)) <= 0, "at most 1 s"));
            assertThat(backend.tryAcquire(late))
                    .as("[redis] fair queue: a later waiter is refused a free key owed to an earlier one")
                    .isInstanceOf(Held.class);
            assertThat(backend.tryAcquire(waiter))
                    .as("[redis] fair queue: the first waiter is granted the free key")
                    .isInstanceOf(Grant.class);
            assertThat(adminConnection.sync().zrange(RedisKeys.queue(key), 0, -1))
                    .as("[redis] fair queue: a grant takes its owner out of the queue")
                    .containsExactly("late");
            backend.abandon(late);
            assertThat(adminConnection
                            .sync()
                            .exists(RedisKeys.queue(key), RedisKeys.presence(key), RedisKeys.wake(key)))
                    .as("[redis] fair queue: an abandoned wait leaves the queue")
                    .isZero();
        }
    }

    @Test
    void aReleaseGrantsTheKeyToTheFirstWaiterItselfWithALeaseNoLongerThanThePresence() throws Exception {
        String key = "fair-handoff";
        try (RedisTestBackends.Opened holding = RedisTestBackends.open(server.uri(), Map.of());
                RedisTestBackends.Opened waiting = RedisTestBackends.open(server.uri(), Map.of());
                ReleaseSignals.Subscription heard =
                        waiting.backend().releaseSignals().orElseThrow().subscribe(key)) {
            RedisBackend holder = holding.backend();
            RedisBackend waiter = waiting.backend();
            AcquireRequest held = RedisTestBackends.request(key, "holder");
            long token = RedisTestBackends.grant(holder, held);
            AcquireRequest wait = RedisTestBackends.request(key, "waiter").waiting();
            assertThat(waiter.tryAcquire(wait)).isInstanceOf(Held.class);

            assertThat(holder.release(RedisTestBackends.lease(held, token))).isTrue();
            assertThat(adminConnection.sync().get(RedisKeys.lock(key)))
                    .as("[redis] fair queue: the release itself gives the key to the first waiter, whose client"
                            + " then holds it without another round trip")
                    .isEqualTo((token + 1) + ":waiter");
            assertThat(adminConnection.sync().pttl(RedisKeys.lock(key)))
                    .as(
                            "[redis] fair queue: a key granted to a waiter that may have died meanwhile is held no"
                                    + " longer than the waiter's presence (%s) until its client renews it",
                            PRESENCE)
                    .isBetween(1L, PRESENCE.toMillis());
            assertThat(adminConnection.sync().zrange(RedisKeys.queue(key), 0, -1))
                    .as("[redis] fair queue: the grant takes the waiter out of the queue")
                    .isEmpty();
            assertThat(waiter.tryAcquire(wait))
                    .as("[redis] fair queue: the waiter's next attempt is that grant")
                    .isInstanceOfSatisfying(
                            Grant.class, g -> assertThat(g.token()).isEqualTo(token + 1));
            assertThat(waiter.release(RedisTestBackends.lease(wait, token + 1))).isTrue();
        }
    }

    @Test
    void aWaiterHandedTheKeyByAReleaseHoldsItForItsWholeLease() throws Exception {
        String name = "fair-handoff-renewed";
        try (LockClient holderClient = LockClient.open(server.uri() + "?lease=30s");
                LockClient waiterClient = LockClient.open(server.uri() + "?lease=30s")) {
            LockHandle held = holderClient.lock(name).acquire(Duration.ZERO);
            CompletableFuture<LockHandle> waiting = waiterClient.lock(name).acquireAsync(Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> adminConnection.sync().zcard(RedisKeys.queue(name)) == 1);
            await("[redis] fair queue: the waiter's client listens on its wake channel")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> adminConnection.sync().hvals(RedisKeys.wake(name)).stream()
                            .anyMatch(v -> v.contains("|")));
            held.close();
            try (LockHandle next = waiting.get(30, TimeUnit.SECONDS)) {
                assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
                await("[redis] fair queue: the client of a waiter handed the key renews the handoff lease to the"
                                + " whole lease at once")
                        .atMost(PRESENCE.dividedBy(2))
                        .until(() -> adminConnection.sync().pttl(RedisKeys.lock(name)) > PRESENCE.toMillis());
                assertThat(next.isHeld()).isTrue();
            }
        }
    }

    @Test
    void aGrantMessageForATokenTheWaiterAlreadySawHeldIsNotTaken() {
        String key = "fair-stale-grant";
        try (RedisTestBackends.Opened holding = RedisTestBackends.open(server.uri(), Map.of());
                RedisTestBackends.Opened waiting = RedisTestBackends.open(server.uri(), Map.of())) {
            RedisBackend holder = holding.backend();
            RedisBackend waiter = waiting.backend();
            AcquireRequest held = RedisTestBackends.request(key, "holder");
            long token = RedisTestBackends.grant(holder, held);
            AcquireRequest wait = RedisTestBackends.request(key, "waiter").waiting();
            assertThat(waiter.tryAcquire(wait)).isInstanceOf(Held.class);
            // A grant's message read late (the waiter's client paused past the grant's lease, and the waiter asked
            // again meanwhile and was refused) names a token no greater than one the waiter was refused under.
            waiter.granted(key, "waiter", token);
            assertThat(waiter.tryAcquire(wait))
                    .as("[redis] fair queue: a grant for a token no newer than the holder's the waiter was refused"
                            + " under is stale and not handed out")
                    .isInstanceOf(Held.class);
            waiter.abandon(wait);
            assertThat(holder.release(RedisTestBackends.lease(held, token))).isTrue();
        }
    }

    @Test
    void aWaitThatTimesOutLeavesTheQueueAtOnceAndTheNextWaiterIsGrantedPromptly() throws Exception {
        String name = "fair-timeout";
        try (LockClient holderClient = LockClient.open(server.uri() + "?lease=30s");
                LockClient quitter = LockClient.open(server.uri());
                LockClient patient = LockClient.open(server.uri())) {
            LockHandle held = holderClient.lock(name).acquire(Duration.ZERO);
            CompletableFuture<LockHandle> quitting = quitter.lock(name).acquireAsync(Duration.ofMillis(700));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> adminConnection.sync().zcard(RedisKeys.queue(name)) == 1);
            CompletableFuture<LockHandle> waiting = patient.lock(name).acquireAsync(Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> adminConnection.sync().zcard(RedisKeys.queue(name)) == 2);
            assertThat(quitting).failsWithin(Duration.ofSeconds(10));
            long ended = System.nanoTime();
            await("[redis] fair queue: a wait that timed out leaves the queue at once, not when its presence ends")
                    .atMost(PRESENCE.dividedBy(2))
                    .until(() -> adminConnection.sync().zcard(RedisKeys.queue(name)) == 1);
            assertThat(Duration.ofNanos(System.nanoTime() - ended)).isLessThan(PRESENCE);
            held.close();
            LockHandle next = waiting.get(PRESENCE.toMillis() / 2, TimeUnit.MILLISECONDS);
            assertThat(next.isHeld())
                    .as("[redis] fair queue: the waiter behind the one that gave up is woken by the release")
                    .isTrue();
            next.close();
        }
    }

    @Test
    void aWaiterThatDiedStallsTheNextOneByAtMostItsPresence() throws Exception {
        String name = "fair-dead";
        try (RedisTestBackends.Opened ghost = RedisTestBackends.open(server.uri(), Map.of());
                LockClient holderClient = LockClient.open(server.uri() + "?lease=30s");
                LockClient patient = LockClient.open(server.uri())) {
            LockHandle held = holderClient.lock(name).acquire(Duration.ZERO);
            // a waiter that asks once and never again, as if its process died (no abandon)
            long died = System.nanoTime();
            assertThat(ghost.backend()
                            .tryAcquire(RedisTestBackends.request(name, "dead-waiter")
                                    .waiting()))
                    .isInstanceOf(Held.class);
            CompletableFuture<LockHandle> waiting = patient.lock(name).acquireAsync(Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> adminConnection.sync().zcard(RedisKeys.queue(name)) == 2);
            held.close(); // names the dead waiter, which nobody wakes
            LockHandle next = waiting.get(30, TimeUnit.SECONDS);
            Duration stalled = Duration.ofNanos(System.nanoTime() - died);
            assertThat(stalled)
                    .as(
                            "[redis] fair queue: the live waiter behind a dead one is granted within the dead"
                                    + " one's presence (%s) and a poll",
                            PRESENCE)
                    .isLessThan(PRESENCE.plusMillis(1500));
            assertThat(adminConnection.sync().zrange(RedisKeys.queue(name), 0, -1))
                    .as("[redis] fair queue: the dead waiter was pruned")
                    .doesNotContain("dead-waiter");
            next.close();
        }
    }

    @Test
    void aReleaseIsHeardOnlyByTheClientOfTheWaiterItGoesTo() throws Exception {
        String name = "fair-directed";
        List<List<String>> heard = new CopyOnWriteArrayList<>(); // channel, message
        try (StatefulRedisPubSubConnection<String, String> listener = admin.connectPubSub();
                LockClient holderClient = LockClient.open(server.uri() + "?lease=30s");
                LockClient first = LockClient.open(server.uri());
                LockClient second = LockClient.open(server.uri())) {
            listener.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String pattern, String channel, String message) {
                    heard.add(List.of(channel, message));
                }
            });
            listener.sync().psubscribe("locksmith:*");
            LockHandle held = holderClient.lock(name).acquire(Duration.ZERO);
            CompletableFuture<LockHandle> firstWaits = first.lock(name).acquireAsync(Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> adminConnection.sync().zcard(RedisKeys.queue(name)) == 1);
            CompletableFuture<LockHandle> secondWaits = second.lock(name).acquireAsync(Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> adminConnection.sync().zcard(RedisKeys.queue(name)) == 2);
            // both waiters asked again after subscribing (each attempt refreshes its presence)
            Supplier<List<Double>> presences =
                    () -> adminConnection.sync().zrangeWithScores(RedisKeys.presence(name), 0, -1).stream()
                            .map(v -> v.getScore())
                            .toList();
            List<Double> queued = presences.get();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                List<Double> now = presences.get();
                return now.size() == 2
                        && !now.get(0).equals(queued.get(0))
                        && !now.get(1).equals(queued.get(1));
            });
            heard.clear();

            held.close();
            LockHandle next = firstWaits.get(30, TimeUnit.SECONDS);
            listener.sync().publish("locksmith:test-marker", "after the grant");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> heard.stream().anyMatch(m -> m.get(0).equals("locksmith:test-marker")));
            List<List<String>> wakeUps = heard.stream()
                    .takeWhile(m -> !m.get(0).equals("locksmith:test-marker"))
                    .toList();
            assertThat(wakeUps)
                    .as("[redis] fair queue: the release is published once, not on the lock's channel that every"
                            + " waiting client hears")
                    .hasSize(1)
                    .noneMatch(m -> m.get(0).equals(RedisKeys.channel(name)));
            String channel = wakeUps.get(0).get(0);
            assertThat(adminConnection.sync().pubsubNumsub(channel))
                    .as("[redis] fair queue: the release's channel is heard by one client, the next waiter's")
                    .containsEntry(channel, 1L);
            next.close();
            secondWaits.get(30, TimeUnit.SECONDS).close();
        }
    }
}
