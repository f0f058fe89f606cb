package io.locksmith.faults;

import io.locksmith.DistributedLock;
import io.locksmith.LeaderElection;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One worker of a fault run, over Locksmith's public API only. It takes one lock again and again:
 * {@code ATTEMPT} → {@code acquire(wait)} → {@code GRANT token} (or {@code TIMEOUT} /
 * {@code ERROR type}) → hold a random time, sampling {@code isHeld()} every few milliseconds
 * ({@code HELD}, timed before the call) and stopping early once it is false → {@code WRITE token}
 * to the {@link Ledger} → {@code ACCEPTED} / {@code REJECTED} → {@code RELEASE} → {@code close()}
 * → {@code RELEASED}; {@code LOST reason} whenever the handle reports a loss. Every line is
 * written before the step goes on, so a worker killed at any instant leaves its grant in the record.
 *
 * <p>The write follows the hold even when the hold ended because the lock was lost: a real
 * worker can lose its lock between its last check and its write, and what must catch that is the
 * ledger's fence, which the checker then sees refuse the stale write.
 *
 * <p>As a process ({@link #main}), it reads the backend's URI from {@value WorkerSettings#URI_VARIABLE}
 * and runs until SIGTERM, when a shutdown hook ends the loop, releases what it holds, logs
 * {@code STOP} and exits 0. As a thread (for the memory backend, whose store processes cannot
 * share) it runs until {@link #stop()}; {@link #pause()} and {@link #abandon()} stand for a
 * process's SIGSTOP and {@code kill -9}.
 */
public final class Worker implements Runnable {

    /** How often a holder asks {@code isHeld()}. */
    private static final long SAMPLE_MILLIS = 5;

    private final WorkerSettings settings;
    private final Supplier<LockClient> client;
    private final EventLog log;
    private final LedgerClient ledger;
    private final Object gate = new Object();
    private volatile boolean stopping;
    private volatile boolean abandoned;
    private boolean paused;
    private volatile CompletableFuture<LockHandle> pending;
    private volatile LeaderElection standing; // a participant's election while it stands or leads
    private volatile boolean stoppedNormally;
    private long madeUpToken;

    /**
     * @param settings what to do
     * @param client   opens the worker's one client; called once, on the worker's thread
     */
    public Worker(WorkerSettings settings, Supplier<LockClient> client) {
        this.settings = settings;
        this.client = client;
        this.log = new EventLog(settings.history(), settings.id());
        this.ledger = new LedgerClient(settings.ledgerPort());
    }

    /**
     * Runs one worker process; see {@link WorkerSettings} for the arguments.
     *
     * @param args the worker's settings
     */
    public static void main(String[] args) {
        WorkerSettings settings = WorkerSettings.parse(args);
        String uri = System.getenv(WorkerSettings.URI_VARIABLE);
        if (uri == null || uri.isBlank()) {
            throw new IllegalArgumentException("set " + WorkerSettings.URI_VARIABLE + " to the backend's URI");
        }
        // the client's lease, not only the lock's: ZooKeeper's session, which frees a dead holder's
        // lock, lasts the client's lease
        Map<String, String> options =
                settings.lease().map(l -> Map.of("lease", l.toMillis() + "ms")).orElse(Map.of());
        Worker worker = new Worker(settings, () -> LockClient.open(uri, options));
        Thread loop = Thread.currentThread();
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            worker.stop();
                            try {
                                loop.join(); // a loop that never ends is the controller's to call hung
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            // halt, not exit: this is the shutdown itself, and 0 says the stop was clean
                            Runtime.getRuntime().halt(worker.stoppedNormally ? 0 : 1);
                        },
                        "worker-stop"));
        try {
            worker.run();
        } catch (Throwable t) {
            System.err.println(settings.id() + " crashed: " + t);
            t.printStackTrace();
            System.err.flush();
            Runtime.getRuntime().halt(1);
        }
    }

    @Override
    public void run() {
        log.write("START", ProcessHandle.current().pid());
        try (LockClient locks = client.get();
                ledger) {
            WorkerSettings.Primitive primitive = settings.primitive();
            DistributedLock lock = primitive.kind() == WorkerSettings.Primitive.Kind.SEMAPHORE
                    ? locks.semaphore(settings.name(), primitive.permits())
                    : locks.lock(settings.name());
            if (settings.mode() == WorkerSettings.Mode.IGNORE_LEASE) {
                lock = lock.withAutoRenew(false);
            }
            while (!stopping) {
                if (primitive.kind() == WorkerSettings.Primitive.Kind.LEADER) {
                    lead(locks);
                } else {
                    round(lock);
                }
                think();
            }
        } catch (Abandoned a) {
            return; // a killed process says nothing more
        }
        log.write("STOP");
        stoppedNormally = true;
    }

    /** @return whether the loop ended by {@link #stop()} and logged {@code STOP} */
    boolean stoppedNormally() {
        return stoppedNormally;
    }

    /** Ends the loop: a waiting acquire is cancelled, a holder releases, then {@code STOP}. */
    public void stop() {
        stopping = true;
        cancelPending();
        LeaderElection e = standing;
        if (e != null) {
            e.close(); // a stopped participant resigns, as a stopped holder releases
        }
        synchronized (gate) {
            gate.notifyAll();
        }
    }

    /** Holds the worker at its next step until {@link #resume()}, as SIGSTOP would. */
    void pause() {
        synchronized (gate) {
            paused = true;
        }
    }

    /** Lets a {@linkplain #pause() paused} worker go on. */
    void resume() {
        synchronized (gate) {
            paused = false;
            gate.notifyAll();
        }
    }

    /**
     * Ends the worker as {@code kill -9} would: it logs nothing more and releases nothing. The
     * caller cuts the worker's connection first, so that its client cannot renew either.
     */
    void abandon() {
        abandoned = true;
        stopping = true;
        cancelPending();
        resume();
    }

    private void round(DistributedLock lock) {
        step();
        log.write("ATTEMPT");
        if (settings.mode() == WorkerSettings.Mode.NO_LOCK) {
            madeUpToken = Math.max(madeUpToken + 1, System.nanoTime());
            log.write("GRANT", madeUpToken);
            holdBlindly();
            write(madeUpToken);
            log.write("RELEASE");
            log.write("RELEASED");
            return;
        }
        LockHandle held = acquire(lock);
        if (held == null) {
            return;
        }
        long token = held.fencingToken();
        log.write("GRANT", token);
        held.whenLost().thenAccept(reason -> {
            if (!abandoned) {
                log.write("LOST", reason);
            }
        });
        if (settings.mode() == WorkerSettings.Mode.IGNORE_LEASE) {
            holdBlindly();
        } else {
            hold(held);
        }
        if (!stopping && settings.primitive().kind() == WorkerSettings.Primitive.Kind.LOCK) {
            write(token); // a semaphore's holders share the name, so its writes are not fenced by one token
        }
        step();
        log.write("RELEASE");
        held.close();
        log.write("RELEASED");
    }

    /**
     * One round as a leader election's participant, in the lock's words: {@code ATTEMPT} is
     * standing, {@code GRANT term} being elected, {@code HELD} samples {@code isLeader()},
     * {@code WRITE term} is the leader's fenced write, {@code LOST reason} a revocation, and
     * {@code RELEASE} / {@code RELEASED} resigning by closing the election. A leadership that ended
     * before its term could be read counts as a wait without a grant ({@code TIMEOUT}).
     */
    private void lead(LockClient locks) {
        step();
        log.write("ATTEMPT");
        LeaderElection election = locks.leaderElection(settings.name(), settings.id());
        election.addListener(new LeaderElection.Listener() {
            @Override
            public void revoked(long term, io.locksmith.LossReason reason) {
                if (!abandoned) {
                    log.write("LOST", reason);
                }
            }
        });
        standing = election;
        if (stopping) {
            election.close();
        }
        try {
            election.start();
            long until = System.nanoTime() + settings.acquireWait().toNanos();
            while (!stopping && !election.awaitLeadership(Duration.ofMillis(100))) {
                if (System.nanoTime() - until >= 0) {
                    break;
                }
            }
            step();
            OptionalLong term = election.term();
            if (term.isEmpty()) {
                if (!stopping) {
                    log.write("TIMEOUT");
                }
                return;
            }
            log.write("GRANT", term.getAsLong());
            long end = System.nanoTime() + randomHoldNanos();
            while (true) {
                step();
                long before = System.nanoTime();
                // leader in this term: one that was revoked and elected again is another grant
                boolean h = election.term().equals(term);
                log.write(before, "HELD", h);
                if (!h || stopping || System.nanoTime() - end >= 0) {
                    break;
                }
                sleep(SAMPLE_MILLIS);
            }
            if (!stopping) {
                write(term.getAsLong());
            }
            step();
            log.write("RELEASE");
            election.close();
            log.write("RELEASED");
        } finally {
            standing = null;
            if (!abandoned) {
                election.close();
            }
        }
    }

    /** @return the handle, or {@code null} when the wait ended without one (already logged) */
    private LockHandle acquire(DistributedLock lock) {
        CompletableFuture<LockHandle> future = lock.acquireAsync(settings.acquireWait());
        pending = future;
        if (stopping) {
            future.cancel(false);
        }
        try {
            return future.get();
        } catch (CancellationException e) {
            step();
            return null;
        } catch (ExecutionException e) {
            step();
            if (e.getCause() instanceof LockTimeoutException) {
                log.write("TIMEOUT");
            } else {
                log.write("ERROR", e.getCause().getClass().getSimpleName());
                pauseAfterError();
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(settings.id() + " was interrupted while waiting", e);
        } finally {
            pending = null;
        }
    }

    private void hold(LockHandle held) {
        long until = System.nanoTime() + randomHoldNanos();
        while (true) {
            step();
            long before = System.nanoTime();
            boolean h = held.isHeld();
            log.write(before, "HELD", h);
            if (!h || stopping || System.nanoTime() - until >= 0) {
                return;
            }
            sleep(SAMPLE_MILLIS);
        }
    }

    /** The broken modes' hold: believes itself the holder for the whole time, asking nothing. */
    private void holdBlindly() {
        long until = System.nanoTime() + randomHoldNanos();
        while (true) {
            step();
            log.write("HELD", true);
            if (stopping || System.nanoTime() - until >= 0) {
                return;
            }
            sleep(SAMPLE_MILLIS);
        }
    }

    private void write(long token) {
        step();
        log.write("WRITE", token);
        LedgerClient.Answer answer = ledger.write(settings.id(), token);
        step();
        log.write(answer.accepted() ? "ACCEPTED" : "REJECTED", token);
    }

    /** Between rounds, so that the worker that just released does not always win the next one. */
    private void think() {
        long bound = Math.max(1, settings.holdMin().toMillis());
        sleep(ThreadLocalRandom.current().nextLong(bound));
    }

    /** An error that ends a wait at once (a backend that refuses connections) must not spin. */
    private void pauseAfterError() {
        sleep(100);
    }

    private long randomHoldNanos() {
        long min = settings.holdMin().toNanos();
        long max = settings.holdMax().toNanos();
        return min == max ? min : ThreadLocalRandom.current().nextLong(min, max);
    }

    /** Where a {@linkplain #pause() paused} thread waits, and where an abandoned one ends. */
    private void step() {
        synchronized (gate) {
            while (paused && !abandoned) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        if (abandoned) {
            throw new Abandoned();
        }
    }

    private void sleep(long millis) {
        if (millis <= 0 || stopping) {
            return;
        }
        synchronized (gate) {
            try {
                // woken early by stop(); a pause takes hold at the next step
                TimeUnit.MILLISECONDS.timedWait(gate, millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void cancelPending() {
        CompletableFuture<LockHandle> f = pending;
        if (f != null) {
            f.cancel(false);
        }
    }

    /** Unwinds an {@linkplain #abandon() abandoned} worker's thread without a release. */
    private static final class Abandoned extends RuntimeException {
        Abandoned() {
            super(null, null, false, false);
        }
    }
}
