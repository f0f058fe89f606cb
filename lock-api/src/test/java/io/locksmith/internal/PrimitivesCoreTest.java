package io.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LeaderElection;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LockListener;
import io.locksmith.LockOptions;
import io.locksmith.LossReason;
import io.locksmith.PermitMismatchException;
import io.locksmith.RateLimiter;
import io.locksmith.spi.Hold;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The core's part of semaphores, read-write locks, leader elections and rate limiters, on a
 * {@link ManualClock}: what it asks the backend for, when it gives up a writer's waiting mark, how a
 * rate limiter's permits run out instead of being released, and how a participant leads, loses and
 * stands again. The backends' kit rules cover what the server keeps.
 */
class PrimitivesCoreTest {

    private static final LockOptions FAST_BACKOFF = LockOptions.builder()
            .backoffMin(Duration.ofMillis(5))
            .backoffMax(Duration.ofMillis(20))
            .build();

    private final TestBackend backend = new TestBackend();
    private ManualClock clock;
    private DefaultLockClient client;

    PrimitivesCoreTest() {
        backend.holds = EnumSet.allOf(Hold.Kind.class);
        client = open();
    }

    private DefaultLockClient open() {
        clock = new ManualClock();
        return DefaultLockClient.onClock(backend::attach, FAST_BACKOFF, clock);
    }

    private void pass(Duration total, Duration step) {
        for (long t = 0; t < total.toNanos(); t += step.toNanos()) {
            clock.advance(step);
            settle();
        }
    }

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
    void eachPrimitiveAsksForItsKindOfHold() {
        client.semaphore("s", 3).acquire(Duration.ZERO).close();
        client.readWriteLock("rw").readLock().acquire(Duration.ZERO).close();
        client.readWriteLock("rw").writeLock().acquire(Duration.ZERO).close();
        client.lock("l").acquire(Duration.ZERO).close();
        assertThat(backend.requests)
                .extracting(r -> r.hold())
                .containsExactly(Hold.permitOf(3), Hold.READ, Hold.WRITE, Hold.EXCLUSIVE);
        assertThat(client.semaphore("s", 3).permits()).isEqualTo(3);
    }

    @Test
    void aBackendWithoutTheKindSaysSoAtOnce() {
        backend.holds = java.util.Set.of(Hold.Kind.EXCLUSIVE);
        assertThatThrownBy(() -> client.semaphore("s", 2))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("test://backend keeps no semaphores");
        assertThatThrownBy(() -> client.readWriteLock("rw"))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("read-write locks");
        assertThatThrownBy(() -> client.rateLimiter("r", 2, Duration.ofSeconds(1)))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(client.leaderElection("e", "host-1"))
                .as("an election needs only locks")
                .isNotNull();
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> client.semaphore("s", 0)).hasMessageContaining("permits must be at least 1, was 0");
        assertThatThrownBy(() -> client.rateLimiter("r", 1, Duration.ZERO)).hasMessageContaining("per");
        assertThatThrownBy(() -> client.leaderElection("e", "")).hasMessageContaining("identity");
        assertThatThrownBy(() -> client.leaderElection("e", "a\nb")).hasMessageContaining("control character");
        assertThatThrownBy(() -> client.leaderElection("e", "x".repeat(65))).hasMessageContaining("1 to 64 bytes");
        assertThatThrownBy(() -> client.leaderElection("e", "ü".repeat(33))).hasMessageContaining("66 bytes");
        assertThat(client.leaderElection("e", "ü".repeat(32)).identity()).hasSize(32);
        backend.minimumLease = Duration.ofSeconds(15);
        assertThatThrownBy(() -> client.rateLimiter("r", 1, Duration.ofSeconds(1)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("outside what test://backend can keep");
    }

    @Test
    void aPermitMismatchEndsTheWaitAtOnceWithoutRetrying() {
        backend.refusal = new PermitMismatchException("s", 3, 5, "test://backend");
        assertThatThrownBy(() -> client.semaphore("s", 5).acquire(Duration.ofSeconds(30)))
                .isInstanceOf(PermitMismatchException.class)
                .hasMessageContaining("has 3 permits")
                .hasMessageContaining("one of 5");
        CompletableFuture<LockHandle> async = client.semaphore("s", 5).acquireAsync(Duration.ofSeconds(30));
        settle();
        assertThat(async).isCompletedExceptionally();
        assertThat(backend.acquireCalls).as("one attempt each, no retry").hasValue(2);
    }

    @Test
    void aWriterThatStopsWaitingGivesUpItsMark() {
        LockHandle reader = client.readWriteLock("rw").readLock().acquire(Duration.ZERO);
        assertThat(client.readWriteLock("rw").writeLock().tryAcquire()).isEmpty();
        assertThat(backend.abandoned).as("a one-shot writer leaves no mark").hasSize(1);

        CompletableFuture<LockHandle> waiting =
                client.readWriteLock("rw").writeLock().acquireAsync(Duration.ofSeconds(1));
        pass(Duration.ofMillis(1100), Duration.ofMillis(50));
        assertThat(waiting).isCompletedExceptionally();
        assertThat(backend.abandoned)
                .as("a writer whose wait ran out leaves no mark")
                .hasSize(2);

        CompletableFuture<LockHandle> cancelled =
                client.readWriteLock("rw").writeLock().acquireAsync(Duration.ofSeconds(30));
        settle();
        cancelled.cancel(false);
        settle();
        assertThat(backend.abandoned).as("nor one whose wait was cancelled").hasSize(3);

        assertThat(client.readWriteLock("rw").readLock().tryAcquire()).isEmpty();
        assertThat(backend.abandoned).as("a reader has no mark to give up").hasSize(3);
        reader.close();
    }

    @Test
    void aWaitingWriterTriesAgainWithinItsLeaseHoweverLongItsBackOff() {
        client.close();
        clock = new ManualClock();
        client = DefaultLockClient.onClock(
                backend::attach,
                LockOptions.builder()
                        .backoffMin(Duration.ofMillis(5))
                        .backoffMax(Duration.ofSeconds(5))
                        .build(),
                clock);
        backend.holderLeft = Duration.ofSeconds(30); // the readers' long lease, as Redis's PTTL tells it
        LockHandle reader = client.readWriteLock("rw").readLock().acquire(Duration.ZERO);
        CompletableFuture<LockHandle> writer = client.readWriteLock("rw")
                .writeLock()
                .withLease(Duration.ofMillis(500))
                .acquireAsync(Duration.ofSeconds(60));
        pass(Duration.ofSeconds(10), Duration.ofMillis(50)); // the back-off has grown to its 5 s
        int before = backend.acquireCalls.get();
        pass(Duration.ofSeconds(10), Duration.ofMillis(50));
        assertThat(backend.acquireCalls.get() - before)
                .as("a writer whose mark lasts 1 s tries at least every 500 ms, not every 5 s back-off")
                .isGreaterThanOrEqualTo(15);
        writer.cancel(false);
        reader.close();
    }

    @Test
    void aWritersAttemptAnsweredAfterItsWaitEndedGivesUpTheMarkItLeft() throws Exception {
        LockHandle reader = client.readWriteLock("rw").readLock().acquire(Duration.ZERO);
        CompletableFuture<LockHandle> writer =
                client.readWriteLock("rw").writeLock().acquireAsync(Duration.ofSeconds(1));
        settle();
        backend.stallAcquire = new java.util.concurrent.CountDownLatch(1);
        backend.stalled = new java.util.concurrent.CountDownLatch(1);
        // the next attempt is out (stalled on the server) when the wait's deadline comes
        for (int i = 0; i < 40 && backend.stalled.getCount() > 0; i++) {
            clock.advance(Duration.ofMillis(20));
            Thread.sleep(5);
        }
        assertThat(backend.stalled.getCount()).as("an attempt stalled").isZero();
        clock.advance(Duration.ofSeconds(2));
        await().atMost(Duration.ofSeconds(10)).until(writer::isDone);
        int abandonedAtTheEnd = backend.abandoned.size();
        backend.stallAcquire.countDown(); // the attempt answers Held: on a real backend it just wrote a mark
        backend.stallAcquire = null;
        settle();
        assertThat(backend.abandoned.size())
                .as("the mark that attempt left is given up after its answer, not only before")
                .isGreaterThan(abandonedAtTheEnd);
        reader.close();
    }

    @Test
    void listenersHearWhatKindWasHeld() {
        List<String> kinds = new CopyOnWriteArrayList<>();
        client.addListener(new LockListener() {
            @Override
            public void held(LockListener.Hold hold) {
                kinds.add(hold.kind());
            }
        });
        client.semaphore("s", 2).acquire(Duration.ZERO).close();
        client.readWriteLock("rw").readLock().acquire(Duration.ZERO).close();
        client.readWriteLock("rw").writeLock().acquire(Duration.ZERO).close();
        client.lock("l").acquire(Duration.ZERO).close();
        settle();
        assertThat(kinds).containsExactly("semaphore", "read", "write", "lock");
    }

    @Test
    void aRateLimitersPermitRunsOutInsteadOfBeingReleased() {
        RateLimiter limiter = client.rateLimiter("r", 2, Duration.ofSeconds(10));
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(backend.requests.get(0).lease()).isEqualTo(Duration.ofSeconds(10));
        assertThat(backend.requests.get(0).hold()).isEqualTo(Hold.permitOf(2));
        String owner = backend.requests.get(0).owner();

        pass(Duration.ofSeconds(9), Duration.ofSeconds(1));
        assertThat(backend.releaseCalls).as("never released").hasValue(0);
        assertThat(backend.renewCalls).as("never renewed").hasValue(0);
        assertThat(backend.lostOwners).as("not before its window ends").isEmpty();
        pass(Duration.ofSeconds(2), Duration.ofSeconds(1));
        assertThat(backend.lostOwners)
                .as("told lost when its window ended, so a backend whose key outlives it removes it")
                .containsExactly(owner);

        backend.owners.remove("r"); // the server's expiry, which this backend leaves to the test
        assertThat(limiter.tryAcquire()).isTrue();
        client.close();
        assertThat(backend.releaseCalls)
                .as("closing the client does not give a window's permit back")
                .hasValue(0);
    }

    @Test
    void aRateLimitersPermitIsHeldAWholeWindowAfterItsAnswerCame() throws Exception {
        RateLimiter limiter = client.rateLimiter("r", 1, Duration.ofSeconds(10));
        backend.stallAcquire = new java.util.concurrent.CountDownLatch(1);
        CompletableFuture<Boolean> granted = CompletableFuture.supplyAsync(limiter::tryAcquire);
        assertThat(backend.stalled.await(10, java.util.concurrent.TimeUnit.SECONDS))
                .isTrue();
        clock.advance(Duration.ofSeconds(2)); // the server answers 2 s after the attempt was sent
        backend.stallAcquire.countDown();
        assertThat(granted.get(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        backend.stallAcquire = null;
        pass(Duration.ofSeconds(9), Duration.ofSeconds(1)); // 11 s after the send, 9 s after the answer
        assertThat(backend.lostOwners)
                .as("the server granted it somewhere in those 2 s: its window ends a whole window after the answer")
                .isEmpty();
        pass(Duration.ofSeconds(2), Duration.ofSeconds(1));
        assertThat(backend.lostOwners).hasSize(1);
    }

    @Test
    void aParticipantLeadsLosesStandsAgainAndResigns() {
        List<String> heard = new CopyOnWriteArrayList<>();
        LeaderElection election = client.leaderElection("e", "host-1").addListener(new LeaderElection.Listener() {
            @Override
            public void elected(long term) {
                heard.add("elected " + term + " on " + Thread.currentThread().getName());
            }

            @Override
            public void revoked(long term, LossReason reason) {
                heard.add("revoked " + term + " " + reason);
            }

            @Override
            public void resigned(long term) {
                heard.add("resigned " + term);
            }
        });
        assertThat(election.isLeader()).as("not standing yet").isFalse();
        election.start();
        settle();
        await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 1);
        assertThat(election.isLeader()).isTrue();
        assertThat(election.term()).hasValue(1);
        assertThat(heard.get(0)).startsWith("elected 1 on ").doesNotContain("timer");
        assertThat(backend.owners.get("e")).as("the owner names the identity").endsWith("/host-1");
        assertThat(election.leader()).hasValue("host-1");
        LeaderElection other = client.leaderElection("e", "host-2");
        assertThat(other.leader())
                .as("another participant reads it from the backend")
                .hasValue("host-1");
        assertThat(DefaultLeaderElection.identityOf("1-ab-7/n%C5%93ud-%C3%A4%2F1+%E2%9C%93"))
                .as("the owner holds the identity percent-encoded, ASCII on every backend")
                .hasValue("nœud-ä/1 ✓");

        // the backend says the lease is another's: revoked, and standing again it is elected anew
        backend.renewHook = leases -> {
            leases.forEach(l -> backend.owners.remove(l.key(), l.owner()));
            return leases.stream().map(l -> RenewOutcome.NOT_OWNED).toList();
        };
        pass(Duration.ofSeconds(11), Duration.ofSeconds(1));
        backend.renewHook = null;
        pass(Duration.ofSeconds(1), Duration.ofMillis(50));
        await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 3);
        assertThat(heard.get(1)).isEqualTo("revoked 1 OWNERSHIP_LOST");
        assertThat(heard.get(2)).startsWith("elected 2 ");
        assertThat(election.term()).hasValue(2);

        election.close();
        settle();
        await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 4);
        assertThat(heard.get(3)).isEqualTo("resigned 2");
        assertThat(election.isLeader()).isFalse();
        assertThat(backend.owners).as("resigning releases the lock").doesNotContainKey("e");
        assertThatThrownBy(election::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aSecondParticipantWaitsAndTakesOverWhenTheLeaderResigns() {
        LeaderElection first = client.leaderElection("e", "host-1").start();
        settle();
        assertThat(first.awaitLeadership(Duration.ofSeconds(10))).isTrue();
        LeaderElection second = client.leaderElection("e", "host-2").start();
        settle();
        assertThat(second.awaitLeadership(Duration.ZERO)).isFalse();
        assertThat(second.isLeader()).isFalse();
        first.close();
        pass(Duration.ofMillis(500), Duration.ofMillis(20));
        assertThat(second.awaitLeadership(Duration.ofSeconds(10))).isTrue();
        assertThat(second.term()).hasValue(2);
        List<Long> late = new ArrayList<>();
        second.addListener(new LeaderElection.Listener() {
            @Override
            public void elected(long term) {
                synchronized (late) {
                    late.add(term);
                }
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            synchronized (late) {
                return late.equals(List.of(2L));
            }
        });
        second.close();
    }

    @Test
    void aTimedWaitForLeadershipRunsOut() {
        client.lock("e").acquire(Duration.ZERO); // someone else leads
        LeaderElection election = client.leaderElection("e", "host-1").start();
        settle();
        assertThat(election.awaitLeadership(Duration.ofMillis(50))).isFalse();
        assertThat(election.leader()).as("the holder is not a participant").isEmpty();
        election.close();
    }
}
