package io.locksmith.bench;

import io.locksmith.DistributedLock;
import io.locksmith.DistributedReadWriteLock;
import io.locksmith.DistributedSemaphore;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** The scenarios, each warmed up and then measured for a fixed time on the same machine. */
final class Scenarios {

    private static final Duration LONG_WAIT = Duration.ofSeconds(60);

    private final Duration warmUp;
    private final Duration measure;

    Scenarios(Duration warmUp, Duration measure) {
        this.warmUp = warmUp;
        this.measure = measure;
    }

    /** One thread, acquire and release of one name, as many times as it can. */
    Histogram uncontended(BackendBench bench) {
        return uncontended(bench.client());
    }

    /** One thread, acquire and release of one lock on the given client (closed after), as many times as it can. */
    Histogram uncontended(LockClient opened) {
        try (LockClient client = opened) {
            DistributedLock lock = client.lock("bench-uncontended");
            return timed(() -> lock.acquire(Duration.ZERO).close());
        }
    }

    /**
     * As {@link #uncontended(LockClient)}, acquiring with a wait of 5 s (the lock is free, so none
     * is needed): what a caller that is ready to wait pays for a free lock.
     */
    Histogram uncontendedWaiting(LockClient opened) {
        try (LockClient client = opened) {
            DistributedLock lock = client.lock("bench-uncontended-waiting");
            return timed(() -> lock.acquire(Duration.ofSeconds(5)).close());
        }
    }

    /** One thread, the given floor's pair (closed after), as many times as it can. */
    Histogram floor(BackendBench.Floor opened) {
        try (BackendBench.Floor floor = opened) {
            return timed(() -> floor.pair("bench-floor"));
        }
    }

    /** One thread, acquire and release of one permit of a semaphore of 3, as many times as it can. */
    Histogram uncontendedPermit(BackendBench bench) {
        try (LockClient client = bench.client()) {
            DistributedSemaphore semaphore = client.semaphore("bench-semaphore", 3);
            return timed(() -> semaphore.acquire(Duration.ZERO).close());
        }
    }

    /** One thread, acquire and release of one side of a read-write lock, as many times as it can. */
    Histogram uncontendedReadWrite(BackendBench bench, boolean write) {
        try (LockClient client = bench.client()) {
            DistributedReadWriteLock readWrite = client.readWriteLock("bench-read-write");
            DistributedLock side = write ? readWrite.writeLock() : readWrite.readLock();
            return timed(() -> side.acquire(Duration.ZERO).close());
        }
    }

    /** As {@link #uncontended}, with a listener that hears every event registered on the client. */
    Histogram uncontendedHeard(BackendBench bench) {
        try (LockClient client = bench.client()) {
            AtomicLong heard = new AtomicLong();
            client.addListener(new io.locksmith.LockListener() {
                @Override
                public void acquisitionStarted(AcquisitionStarted event) {
                    heard.incrementAndGet();
                }

                @Override
                public void acquisitionEnded(AcquisitionEnded event) {
                    heard.incrementAndGet();
                }

                @Override
                public void held(Hold event) {
                    heard.incrementAndGet();
                }

                @Override
                public void released(HoldEnded event) {
                    heard.incrementAndGet();
                }
            });
            DistributedLock lock = client.lock("bench-uncontended");
            return timed(() -> lock.acquire(Duration.ZERO).close());
        }
    }

    /** One thread, the backend's own client doing one lock pair, as many times as it can. */
    Histogram floor(BackendBench bench) {
        try (BackendBench.Floor floor = bench.floor()) {
            return timed(() -> floor.pair("bench-floor"));
        }
    }

    /** One thread, one round trip (a ping), as many times as it can. */
    Histogram roundTrip(Runnable ping) {
        return timed(ping);
    }

    /** Grants per second, wait and handoff latency for 8 threads over 2 clients on one name. */
    Contended contended(BackendBench bench, int threads, int names) throws InterruptedException {
        List<LockClient> clients = List.of(bench.client(), bench.client());
        Recorder waits = new Recorder(3);
        Recorder handoffs = new Recorder(3);
        AtomicLong releasedAt = new AtomicLong();
        AtomicLong grants = new AtomicLong();
        long[] phase = {System.nanoTime() + warmUp.toNanos(), 0};
        phase[1] = phase[0] + measure.toNanos();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            LockClient client = clients.get(t % clients.size());
            Thread worker = new Thread(
                    () -> {
                        while (System.nanoTime() < phase[1]) {
                            String name = names == 1
                                    ? "bench-contended"
                                    : "bench-spread-"
                                            + ThreadLocalRandom.current().nextInt(names);
                            long asked = System.nanoTime();
                            LockHandle h = client.lock(name).acquire(LONG_WAIT);
                            long granted = System.nanoTime();
                            boolean counted = granted > phase[0] && granted < phase[1];
                            if (counted) {
                                grants.incrementAndGet();
                                waits.recordValue(Math.max(1, (granted - asked) / 1000));
                                long released = releasedAt.get();
                                if (names == 1 && released > asked) {
                                    // the previous holder let go while this thread waited: a handoff
                                    handoffs.recordValue(Math.max(1, (granted - released) / 1000));
                                }
                            }
                            releasedAt.set(System.nanoTime());
                            h.close();
                        }
                    },
                    "bench-" + t);
            worker.start();
            workers.add(worker);
        }
        for (Thread w : workers) {
            w.join();
        }
        clients.forEach(LockClient::close);
        return new Contended(
                grants.get() / (measure.toNanos() / 1e9),
                waits.getIntervalHistogram(),
                handoffs.getIntervalHistogram());
    }

    /**
     * Issue 20's contended scenario: each contender on its own client or connection, one name.
     *
     * @param contenders the contenders, closed when the run ends
     * @return what the measured window saw
     * @throws InterruptedException if interrupted while waiting for the contenders
     */
    Contention.Outcome contention(List<Contention.Contender> contenders) throws InterruptedException {
        return Contention.run(contenders, warmUp, measure);
    }

    /** What a contended run measured. */
    record Contended(double grantsPerSecond, Histogram waitMicros, Histogram handoffMicros) {}

    private Histogram timed(Runnable op) {
        long end = System.nanoTime() + warmUp.toNanos();
        while (System.nanoTime() < end) {
            op.run();
        }
        Histogram h = new Histogram(3);
        long start = System.nanoTime();
        end = start + measure.toNanos();
        long now = start;
        while (now < end) {
            op.run();
            long after = System.nanoTime();
            h.recordValue(Math.max(1, after - now));
            now = after;
        }
        h.setStartTimeStamp(start);
        h.setEndTimeStamp(now);
        return h;
    }

    static double perSecond(Histogram nanos) {
        return nanos.getTotalCount() / ((nanos.getEndTimeStamp() - nanos.getStartTimeStamp()) / 1e9);
    }
}
