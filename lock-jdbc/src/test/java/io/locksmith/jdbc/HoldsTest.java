package io.locksmith.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locksmith.DistributedReadWriteLock;
import io.locksmith.LeaderElection;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.PermitMismatchException;
import io.locksmith.RateLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Semaphores and read-write locks in the holds table, against each database: the rules the kit
 * states for every backend, checked here on the table's own terms (several clients, each with
 * its own connections, as separate processes would have).
 */
class HoldsTest {

    private static LockClient client(Database db, String lease) {
        String url = db.url();
        return LockClient.open(url + (url.contains("?") ? "&" : "?") + "table=holds_locks&lease=" + lease);
    }

    private static String name(String what) {
        return what + "-" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aSemaphoreHasAtMostItsPermitsHoldersAcrossClientsAndEveryGrantATokenAboveTheLast(Database db)
            throws Exception {
        String name = name("semaphore");
        int permits = 2;
        List<LockClient> clients = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            for (int i = 0; i < 3; i++) {
                clients.add(client(db, "10s"));
            }
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                LockClient client = clients.get(t % clients.size());
                workers.add(pool.submit(() -> {
                    for (int round = 0; round < 5; round++) {
                        try (LockHandle h = client.semaphore(name, permits).acquire(Duration.ofSeconds(60))) {
                            int now = inside.incrementAndGet();
                            most.accumulateAndGet(now, Math::max);
                            tokens.add(h.fencingToken());
                            Thread.sleep(5);
                            inside.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> w : workers) {
                w.get(120, TimeUnit.SECONDS);
            }
            assertThat(most.get())
                    .as("[jdbc-%s] semaphore: at most %d holders at once", db, permits)
                    .isLessThanOrEqualTo(permits);
            assertThat(tokens)
                    .as("[jdbc-%s] semaphore: every grant has its own token", db)
                    .doesNotHaveDuplicates()
                    .hasSize(30);
        } finally {
            pool.shutdownNow();
            clients.forEach(LockClient::close);
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aPermitOfAnotherCountFailsWhileTheSemaphoreIsHeldAndSetsTheCountOnceItIsNot(Database db) {
        String name = name("mismatch");
        try (LockClient a = client(db, "20s");
                LockClient b = client(db, "20s")) {
            LockHandle held = a.semaphore(name, 3).acquire(Duration.ZERO);
            assertThatThrownBy(() -> b.semaphore(name, 2).tryAcquire(Duration.ofSeconds(5)))
                    .as("[jdbc-%s] semaphore: another permit count is an error naming both", db)
                    .isInstanceOf(PermitMismatchException.class)
                    .hasMessageContaining("has 3 permits")
                    .hasMessageContaining("one of 2");
            held.close();
            try (LockHandle two = b.semaphore(name, 2).acquire(Duration.ZERO)) {
                assertThat(two.fencingToken())
                        .as("[jdbc-%s] semaphore: the count is set again once nobody holds, the token goes on", db)
                        .isGreaterThan(held.fencingToken());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void readersShareAWriterExcludesAndAWaitingWriterGoesBeforeLaterReaders(Database db) throws Exception {
        String name = name("rw");
        try (LockClient a = client(db, "20s");
                LockClient b = client(db, "20s");
                LockClient c = client(db, "20s")) {
            DistributedReadWriteLock rwA = a.readWriteLock(name);
            LockHandle read1 = rwA.readLock().acquire(Duration.ZERO);
            LockHandle read2 = b.readWriteLock(name).readLock().acquire(Duration.ZERO);
            assertThat(read2.fencingToken())
                    .as("[jdbc-%s] read-write: readers share, tokens increase", db)
                    .isGreaterThan(read1.fencingToken());
            assertThat(c.readWriteLock(name).writeLock().tryAcquire())
                    .as("[jdbc-%s] read-write: no writer while readers hold", db)
                    .isEmpty();
            CompletableFuture<LockHandle> writer =
                    c.readWriteLock(name).writeLock().acquireAsync(Duration.ofSeconds(30));
            // the writer's mark is made by its first attempt; a reader after it must wait
            awaitMark(db, name);
            assertThat(b.readWriteLock(name).readLock().tryAcquire())
                    .as("[jdbc-%s] read-write: no new reader while a writer waits", db)
                    .isEmpty();
            read1.close();
            read2.close();
            LockHandle write = writer.get(30, TimeUnit.SECONDS);
            assertThat(write.fencingToken())
                    .as("[jdbc-%s] read-write: the writer's token is above the readers'", db)
                    .isGreaterThan(read2.fencingToken());
            assertThat(a.readWriteLock(name).readLock().tryAcquire())
                    .as("[jdbc-%s] read-write: no reader while a writer holds", db)
                    .isEmpty();
            assertThat(b.readWriteLock(name).writeLock().tryAcquire())
                    .as("[jdbc-%s] read-write: one writer at a time", db)
                    .isEmpty();
            assertThat(a.readWriteLock(name).holders())
                    .as("[jdbc-%s] read-write: the holders are the writer alone", db)
                    .hasSize(1);
            write.close();
            try (LockHandle read = a.readWriteLock(name).readLock().acquire(Duration.ZERO)) {
                assertThat(read.fencingToken()).isGreaterThan(write.fencingToken());
            }
        }
    }

    /** Waits until a writer's mark is in the table, read as an operator would. */
    private static void awaitMark(Database db, String name) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String hash = Keys.hash(name);
        while (System.nanoTime() < deadline) {
            try (var conn = db.admin();
                    var s = conn.prepareStatement(
                            "SELECT COUNT(*) FROM holds_locks_holds WHERE hold_key = ? AND kind = 'M'")) {
                s.setString(1, hash);
                try (var rs = s.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return;
                    }
                }
            }
            Thread.sleep(20); // polling the table, which has no way to say it changed
        }
        throw new AssertionError("[jdbc-" + db + "] read-write: the waiting writer made no mark in 30 s");
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void anAbandonedWriterLetsReadersInAgain(Database db) {
        String name = name("abandon");
        try (LockClient a = client(db, "20s");
                LockClient b = client(db, "20s")) {
            LockHandle read = a.readWriteLock(name).readLock().acquire(Duration.ZERO);
            assertThat(b.readWriteLock(name).writeLock().tryAcquire(Duration.ofMillis(300)))
                    .isEmpty();
            try (LockHandle again = a.readWriteLock(name).readLock().acquire(Duration.ofSeconds(5))) {
                assertThat(again.fencingToken())
                        .as("[jdbc-%s] read-write: a writer that stopped waiting holds no reader back", db)
                        .isGreaterThan(read.fencingToken());
            }
            read.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void permitsRenewPastThreeLeasesAndACrashedHoldersPermitReturnsWithinItsLease(Database db) throws Exception {
        String name = name("renew");
        try (LockClient a = client(db, "1s");
                LockClient b = client(db, "1s")) {
            LockHandle renewed = a.semaphore(name, 2).acquire(Duration.ZERO);
            LockHandle crashed = b.semaphore(name, 2).withAutoRenew(false).acquire(Duration.ZERO);
            long start = System.nanoTime();
            // a third permit is refused while both hold; the unrenewed one ends within its lease
            Optional<LockHandle> third = b.semaphore(name, 2).tryAcquire(Duration.ofSeconds(10));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(third)
                    .as("[jdbc-%s] semaphore: a holder that stops renewing frees its permit", db)
                    .isPresent();
            assertThat(waited)
                    .as("[jdbc-%s] semaphore: within its lease (1 s) plus a margin", db)
                    .isLessThan(6000);
            Thread.sleep(3500); // time is the subject: three leases of renewals
            assertThat(renewed.isHeld())
                    .as("[jdbc-%s] semaphore: a renewed permit is held past three leases", db)
                    .isTrue();
            assertThat(a.semaphore(name, 2).tryAcquire())
                    .as("[jdbc-%s] semaphore: both permits still held after three leases", db)
                    .isEmpty();
            assertThat(a.semaphore(name, 2).holders())
                    .as("[jdbc-%s] semaphore: the holders are listed", db)
                    .hasSize(2);
            renewed.close();
            third.get().close();
            crashed.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aLockASemaphoreAndAReadWriteLockOfOneNameNeverMeet(Database db) {
        String name = name("namespace");
        try (LockClient a = client(db, "20s");
                LockClient b = client(db, "20s")) {
            try (LockHandle lock = a.lock(name).acquire(Duration.ZERO);
                    LockHandle permit = b.semaphore(name, 1).acquire(Duration.ZERO);
                    LockHandle write = b.readWriteLock(name).writeLock().acquire(Duration.ZERO)) {
                assertThat(List.of(lock.isHeld(), permit.isHeld(), write.isHeld()))
                        .as("[jdbc-%s] namespaces: lock, semaphore and read-write lock of one key", db)
                        .containsOnly(true);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aRateLimiterGrantsAtMostItsPermitsInAnyWindow(Database db) throws Exception {
        String name = name("rate");
        Duration per = Duration.ofMillis(700);
        try (LockClient a = client(db, "20s");
                LockClient b = client(db, "20s")) {
            RateLimiter ra = a.rateLimiter(name, 3, per);
            RateLimiter rb = b.rateLimiter(name, 3, per);
            List<long[]> grants = new ArrayList<>(); // {sent, answered}
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < end) {
                for (RateLimiter r : List.of(ra, rb)) {
                    long sent = System.nanoTime();
                    if (r.tryAcquire()) {
                        grants.add(new long[] {sent, System.nanoTime()});
                    }
                }
            }
            assertThat(grants.size())
                    .as("[jdbc-%s] rate limiter: grants over several windows", db)
                    .isGreaterThanOrEqualTo(6);
            // the database granted each between its sending and its answer; four grants break the
            // window only if they all fit between the first one's sending and the last one's
            // answer (a grant answered late on a busy machine must not look early), within the
            // database clock's rounding to milliseconds (one thread asks, so the grants are in
            // order of sending and of answer)
            long window = per.toNanos() - TimeUnit.MILLISECONDS.toNanos(5);
            for (int i = 0; i + 3 < grants.size(); i++) {
                assertThat(grants.get(i + 3)[1] - grants.get(i)[0])
                        .as("[jdbc-%s] rate limiter: at most 3 grants in any %s", db, per)
                        .isGreaterThanOrEqualTo(window);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void withoutAHoldsTableAndCreateTableOffLocksWorkAndASemaphoreSaysWhatIsMissing(Database db) {
        String url = db.url() + (db.url().contains("?") ? "&" : "?") + "table=bare_locks&lease=20s";
        LockClient.open(url).close();
        db.execute("DROP TABLE bare_locks_holds");
        try (LockClient locks = LockClient.open(url + "&create-table=false")) {
            try (LockHandle lock = locks.lock(name("bare")).acquire(Duration.ZERO)) {
                assertThat(lock.isHeld())
                        .as("[jdbc-%s] a lock table without its holds table still keeps locks", db)
                        .isTrue();
            }
            assertThatThrownBy(() -> locks.semaphore(name("bare"), 2).tryAcquire())
                    .as("[jdbc-%s] a semaphore without the holds table names it and the way out", db)
                    .isInstanceOf(io.locksmith.LockConfigurationException.class)
                    .hasMessageContaining("bare_locks_holds")
                    .hasMessageContaining("create-table=false");
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aLeaderElectionHasOneLeaderWhoseIdentityIsReadBackAndASuccessorWhenItLeaves(Database db) {
        String name = name("election");
        try (LockClient a = client(db, "1s");
                LockClient b = client(db, "1s")) {
            LeaderElection first = a.leaderElection(name, "node-1").start();
            assertThat(first.awaitLeadership(Duration.ofSeconds(20)))
                    .as("[jdbc-%s] leader: the only participant leads", db)
                    .isTrue();
            try (LeaderElection second = b.leaderElection(name, "node-2").start()) {
                assertThat(second.awaitLeadership(Duration.ofMillis(1500)))
                        .as("[jdbc-%s] leader: at most one leader", db)
                        .isFalse();
                assertThat(second.leader())
                        .as("[jdbc-%s] leader: the leader's identity, as given, from the lock row", db)
                        .contains("node-1");
                long term = first.term().orElseThrow();
                first.close();
                assertThat(second.awaitLeadership(Duration.ofSeconds(20)))
                        .as("[jdbc-%s] leader: a successor once the leader leaves", db)
                        .isTrue();
                assertThat(second.term().orElseThrow())
                        .as("[jdbc-%s] leader: the successor's term is greater", db)
                        .isGreaterThan(term);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aLeadersIdentityOfAnyUnicodeIsReadBackExactly(Database db) {
        // the core percent-encodes the identity in the owner, so MariaDB's ASCII owner column keeps it too
        String name = name("unicode-election");
        try (LockClient a = client(db, "1s");
                LockClient b = client(db, "1s");
                LeaderElection leader = a.leaderElection(name, "nœud-ä/1 ✓").start()) {
            assertThat(leader.awaitLeadership(Duration.ofSeconds(20)))
                    .as("[jdbc-%s] leader: a participant with a Unicode identity leads", db)
                    .isTrue();
            try (LeaderElection other = b.leaderElection(name, "node-2").start()) {
                assertThat(other.leader())
                        .as("[jdbc-%s] leader: the identity as given, from the lock row", db)
                        .contains("nœud-ä/1 ✓");
            }
        }
    }
}
