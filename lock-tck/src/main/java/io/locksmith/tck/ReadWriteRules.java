package io.locksmith.tck;

import io.locksmith.DistributedReadWriteLock;
import io.locksmith.LockHandle;
import io.locksmith.LockTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A read-write lock shares its read side among readers and gives its write side to one writer
 * alone, across clients; a waiting writer goes before readers that come after it, and a writer
 * that stops waiting leaves nothing that holds readers back; tokens increase across both sides;
 * both sides renew, and return when their holder dies. Every rule skips, saying so, if the
 * provider keeps no read-write locks.
 */
interface ReadWriteRules extends Rules {

    @Test
    default void required_readWriteReadersShareAcrossClients() {
        LockContract c = contract();
        String name = c.name("share");
        List<LockHandle> readers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Optional<LockHandle> r =
                    c.readWriteLock(c.client(), name).readLock().tryAcquire();
            c.check(r.isPresent(), "reader " + (i + 1) + " must be granted beside " + i + " other readers");
            readers.add(r.get());
        }
        c.check(readers.stream().allMatch(LockHandle::isHeld), "all three readers must hold the lock at once");
        readers.forEach(LockHandle::close);
    }

    @Test
    default void required_readWriteAWriterExcludesReadersAndWriters() {
        LockContract c = contract();
        String name = c.name("exclude");
        DistributedReadWriteLock one = c.readWriteLock(c.client(), name);
        DistributedReadWriteLock two = c.readWriteLock(c.client(), name);
        LockHandle writer = one.writeLock().acquire(Duration.ZERO);
        c.check(two.readLock().tryAcquire().isEmpty(), "a reader must not be granted while a writer holds");
        c.check(two.writeLock().tryAcquire().isEmpty(), "a second writer must not be granted while a writer holds");
        writer.close();
        LockHandle reader = c.grantedAtOnce(two.readLock(), "after the writer released, a reader:");
        LockHandle other =
                c.grantedAtOnce(c.readWriteLock(c.client(), name).readLock(), "beside a reader, a second reader:");
        c.check(one.writeLock().tryAcquire().isEmpty(), "a writer must not be granted while readers hold");
        reader.close();
        c.check(one.writeLock().tryAcquire().isEmpty(), "a writer must not be granted while one reader still holds");
        other.close();
        LockHandle next = c.grantedAtOnce(one.writeLock(), "after every reader released, a writer:");
        next.close();
    }

    @Test
    default void required_readWriteTokensIncreaseAcrossReadersAndWriters() {
        LockContract c = contract();
        String name = c.name("tokens");
        DistributedReadWriteLock one = c.readWriteLock(c.client(), name);
        DistributedReadWriteLock two = c.readWriteLock(c.client(), name);
        long last = Long.MIN_VALUE;
        for (int i = 0; i < 4; i++) {
            LockHandle a = one.readLock().acquire(c.margin());
            LockHandle b = two.readLock().acquire(c.margin());
            c.check(
                    a.fencingToken() > last && b.fencingToken() > a.fencingToken(),
                    "two readers granted one after the other carried tokens " + a.fencingToken() + " and "
                            + b.fencingToken() + ", not strictly increasing from " + last);
            last = b.fencingToken();
            a.close();
            b.close();
            try (LockHandle w = (i % 2 == 0 ? one : two).writeLock().acquire(c.margin())) {
                c.check(
                        w.fencingToken() > last,
                        "a writer after readers carried token " + w.fencingToken() + " after " + last);
                last = w.fencingToken();
            }
        }
    }

    @Test
    default void required_readWriteBothSidesRenewPastThreeLeases() {
        LockContract c = contract();
        String read = c.name("read");
        String write = c.name("write");
        LockHandle reader = c.readWriteLock(c.client(), read).readLock().acquire(Duration.ZERO);
        LockHandle writer = c.readWriteLock(c.client(), write).writeLock().acquire(Duration.ZERO);
        c.throughout(
                c.lease().multipliedBy(3).plus(c.lease().dividedBy(2)),
                () -> reader.isHeld() && writer.isHeld(),
                () -> "a " + (reader.isHeld() ? "writer" : "reader")
                        + " with automatic renewal must stay held past three leases");
        c.check(
                c.readWriteLock(c.client(), read).writeLock().tryAcquire().isEmpty(),
                "after three leases a writer must still find the renewed reader holding");
        c.check(
                c.readWriteLock(c.client(), write).readLock().tryAcquire().isEmpty(),
                "after three leases a reader must still find the renewed writer holding");
        reader.close();
        writer.close();
    }

    @Test
    default void required_readWriteAWaitingWriterGoesBeforeLaterReaders() {
        LockContract c = contract();
        String name = c.name("preference");
        LockHandle first = c.readWriteLock(c.client(), name).readLock().acquire(Duration.ZERO);
        Duration long_ = c.lease().multipliedBy(10).plus(c.margin());
        CompletableFuture<LockHandle> writer =
                c.readWriteLock(c.client(), name).writeLock().acquireAsync(long_);
        c.throughout(Duration.ofMillis(300), () -> !writer.isDone(), "the writer must wait while a reader holds");
        DistributedReadWriteLock later = c.readWriteLock(c.client(), name);
        Optional<LockHandle> barged = later.readLock().tryAcquire();
        barged.ifPresent(LockHandle::close);
        c.check(
                barged.isEmpty(),
                "a reader that came after a waiting writer was granted at once: a waiting writer must keep"
                        + " new readers back (by queue order or a waiting mark)");
        CompletableFuture<LockHandle> reader = later.readLock().acquireAsync(long_);
        c.throughout(
                Duration.ofMillis(300),
                () -> !reader.isDone(),
                "a reader that came after a waiting writer must wait while the writer waits");
        first.close();
        LockHandle w = c.complete(
                writer,
                c.lease().plus(c.margin()),
                "the waiting writer must be granted once the first reader released");
        c.throughout(
                Duration.ofMillis(200), () -> !reader.isDone(), "the later reader must wait while the writer holds");
        w.close();
        LockHandle r =
                c.complete(reader, c.lease().plus(c.margin()), "the later reader must be granted after the writer");
        c.check(
                r.fencingToken() > w.fencingToken(),
                "the reader after the writer carried token " + r.fencingToken() + " after " + w.fencingToken());
        r.close();
    }

    @Test
    default void required_readWriteAWriterIsNotStarvedByOverlappingReaders() throws Exception {
        LockContract c = contract();
        String name = c.name("stream");
        int readers = 3;
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(readers);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(readers);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int i = 0; i < readers; i++) {
                DistributedReadWriteLock lock = c.readWriteLock(c.client(), name);
                long hold = TimeUnit.MILLISECONDS.toNanos(60 + 30L * i);
                done.add(pool.submit(() -> {
                    boolean first = true;
                    while (!stop.get()) {
                        // each reader takes the lock again as soon as it left it: with three of them,
                        // some reader holds the lock at every instant unless new readers are kept back
                        Optional<LockHandle> r = lock.readLock().tryAcquire(Duration.ofMillis(100));
                        if (r.isPresent()) {
                            if (first) {
                                reading.countDown();
                                first = false;
                            }
                            java.util.concurrent.locks.LockSupport.parkNanos(hold);
                            r.get().close();
                        }
                    }
                    return null;
                }));
            }
            c.check(
                    reading.await(c.margin().toMillis(), TimeUnit.MILLISECONDS),
                    "three readers must all be granted the read side");
            long before = System.nanoTime();
            Optional<LockHandle> writer = c.readWriteLock(c.client(), name)
                    .writeLock()
                    .tryAcquire(c.lease().plus(c.margin()).multipliedBy(2));
            long took = System.nanoTime() - before;
            stop.set(true);
            c.check(
                    writer.isPresent(),
                    "a writer waiting while readers overlap one another must be granted once the readers"
                            + " holding when it came have left: new readers must wait behind it");
            c.check(
                    took <= c.lease().plus(c.margin()).toNanos(),
                    "the writer was granted only after " + TimeUnit.NANOSECONDS.toMillis(took) + " ms");
            writer.get().close();
            for (java.util.concurrent.Future<?> f : done) {
                c.complete(f, c.margin().multipliedBy(2), "a reader thread must stop");
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
    }

    @Test
    default void required_readWriteAWriterThatStoppedWaitingLeavesNoMark() {
        LockContract c = contract();
        String name = c.name("nomark");
        LockHandle first = c.readWriteLock(c.client(), name).readLock().acquire(Duration.ZERO);
        DistributedReadWriteLock writer = c.readWriteLock(c.client(), name);
        c.check(writer.writeLock().tryAcquire().isEmpty(), "a writer must not be granted while a reader holds");
        LockHandle second = c.grantedAtOnce(
                c.readWriteLock(c.client(), name).readLock(),
                "after a writer's tryAcquire() failed, it leaves no waiting mark: a new reader:");
        c.expectThrows(
                LockTimeoutException.class,
                () -> writer.writeLock().acquire(Duration.ofMillis(300)),
                "a writer's acquire() must time out while readers hold");
        LockHandle third = c.grantedAtOnce(
                c.readWriteLock(c.client(), name).readLock(),
                "after a writer's timed wait ran out, it leaves no waiting mark: a new reader:");
        first.close();
        second.close();
        third.close();
        LockHandle w = c.grantedAtOnce(writer.writeLock(), "once the readers released, the writer:");
        w.close();
    }

    @Test
    default void required_readWriteADeadHoldersHoldReturnsWithinItsLease() {
        LockContract c = contract();
        Duration bound = c.lease().plus(c.margin());
        for (boolean deadWriter : new boolean[] {true, false}) {
            String name = c.name(deadWriter ? "deadwriter" : "deadreader");
            // a holder that stops renewing and never releases: as a process that died holding it
            long before = System.nanoTime();
            DistributedReadWriteLock dying = c.readWriteLock(c.client(), name);
            LockHandle dead = (deadWriter ? dying.writeLock() : dying.readLock())
                    .withAutoRenew(false)
                    .acquire(Duration.ZERO);
            DistributedReadWriteLock next = c.readWriteLock(c.client(), name);
            LockHandle taken = (deadWriter ? next.readLock() : next.writeLock()).acquire(bound.multipliedBy(2));
            long took = System.nanoTime() - before;
            c.check(
                    took <= bound.toNanos(),
                    "a dead " + (deadWriter ? "writer" : "reader") + "'s hold must return within its lease plus "
                            + c.margin().toMillis() + " ms; it took " + TimeUnit.NANOSECONDS.toMillis(took) + " ms");
            c.check(
                    taken.fencingToken() > dead.fencingToken(),
                    "the grant after a dead holder carried token " + taken.fencingToken() + ", not greater than "
                            + dead.fencingToken());
            taken.close();
            dead.close();
        }
    }
}
