package io.locksmith.faults;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The fault suite's short version, run by the build: a few backend × nemesis pairs, real servers
 * and real worker processes, a run failing on any violation the {@link Checker} finds. {@code scripts/faults.sh} runs the
 * whole matrix. Each run is just long enough for its nemesis to strike once (a pause lasts two
 * leases, and one lease must follow it).
 */
class ShortFaultSuiteTest {

    /** Kept after the build, so that a failure's histories can be read. */
    private final Path dir = Path.of("target", "faults", "short");
    /** The controller's lines that say how the run went rather than what the nemesis did. */
    private static final Set<String> NOT_FAULTS =
            Set.of("EXIT", "HUNG", "STOPPING", "END", "RESUME", "RESTORE", "SERVER_UP", "SERVER_RESUME", "MIGRATED");

    @Test
    void memoryHolderKilled() throws Exception {
        passes("memory", Nemesis.KILL, Duration.ofSeconds(8));
    }

    @Test
    void memoryHolderPausedPastItsLease() throws Exception {
        passes("memory", Nemesis.PAUSE, Duration.ofSeconds(10));
    }

    @Test
    void redisHolderKilled() throws Exception {
        passes("redis", Nemesis.KILL, Duration.ofSeconds(10));
    }

    @Test
    void postgresHolderPausedPastItsLease() throws Exception {
        passes("postgres", Nemesis.PAUSE, Duration.ofSeconds(10));
    }

    @Test
    void memorySemaphoreHolderKilled() throws Exception {
        passes("memory", Nemesis.KILL, Duration.ofSeconds(8), WorkerSettings.Primitive.semaphore(2));
    }

    @Test
    void memoryLeaderKilled() throws Exception {
        passes("memory", Nemesis.KILL, Duration.ofSeconds(8), WorkerSettings.Primitive.LEADER);
    }

    @Test
    void memoryLeaderPausedPastItsLease() throws Exception {
        passes("memory", Nemesis.PAUSE, Duration.ofSeconds(10), WorkerSettings.Primitive.LEADER);
    }

    @Test
    void redisSemaphoreHolderKilled() throws Exception {
        passes("redis", Nemesis.KILL, Duration.ofSeconds(10), WorkerSettings.Primitive.semaphore(2));
    }

    @Test
    void redisLeaderKilled() throws Exception {
        passes("redis", Nemesis.KILL, Duration.ofSeconds(10), WorkerSettings.Primitive.LEADER);
    }

    private void passes(String backend, Nemesis nemesis, Duration length) throws InterruptedException {
        passes(backend, nemesis, length, WorkerSettings.Primitive.LOCK);
    }

    private void passes(String backend, Nemesis nemesis, Duration length, WorkerSettings.Primitive primitive)
            throws InterruptedException {
        Target target = Target.open(backend, dir);
        String run = backend + "-" + nemesis.flag()
                + (primitive == WorkerSettings.Primitive.LOCK
                        ? ""
                        : "-" + primitive.flag().replace(':', '-'));
        FaultRun.Result r =
                FaultRun.run(FaultRun.Plan.of(target, nemesis, length).taking(primitive), dir.resolve(run));
        Findings f = FaultSuite.check(r);
        String row = f.row(backend, nemesis.flag() + " " + primitive.flag()) + " (histories in " + r.dir() + ")";
        long faults = r.history().of(Event.CONTROLLER).stream()
                .filter(e -> !NOT_FAULTS.contains(e.kind()))
                .count();
        assertTrue(
                faults > 0,
                "[" + backend + "] " + nemesis.flag() + ": the nemesis must have struck at least once; " + row);
        assertTrue(
                f.grants() > 1,
                "[" + backend + "] " + nemesis.flag() + ": the workers must have been granted the lock"
                        + " more than once; " + row);
        assertTrue(
                f.writesAccepted() > 0 || primitive.kind() == WorkerSettings.Primitive.Kind.SEMAPHORE,
                "[" + backend + "] " + nemesis.flag() + ": the ledger must have accepted writes; " + row);
        assertTrue(
                f.passed(), "[" + backend + "] " + nemesis.flag() + ": no promise broken; " + row + "\n" + f.report());
    }
}
