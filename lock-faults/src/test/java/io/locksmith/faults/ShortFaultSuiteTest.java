package io.locksmith.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fault suite's short version, run by the build: a few backend × nemesis pairs, real servers
 * and real worker processes, a run failing on any violation. {@code scripts/faults.sh} runs the
 * whole matrix. Each run is just long enough for its nemesis to strike once (a pause lasts two
 * leases, and one lease must follow it).
 */
class ShortFaultSuiteTest {

    /** Kept after the build, so that a failure's histories can be read. */
    private final Path dir = Path.of("target", "faults", "short");

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

    private void passes(String backend, Nemesis nemesis, Duration length) throws InterruptedException {
        Target target = Target.open(backend, dir);
        FaultRun.Result r = FaultRun.run(FaultRun.Plan.of(target, nemesis, length), dir.resolve(backend + "-" + nemesis.flag()));
        RunSummary s = RunSummary.of(r.history());
        String row = s.row(backend, nemesis.flag()) + " (histories in " + r.dir() + ")";
        assertTrue(s.faults() > 0, "[" + backend + "] " + nemesis.flag() + ": the nemesis must have struck at least once; " + row);
        assertTrue(s.grants() > 1, "[" + backend + "] " + nemesis.flag() + ": the workers must have been granted the lock"
                + " more than once; " + row);
        assertTrue(s.accepted() > 0, "[" + backend + "] " + nemesis.flag() + ": the ledger must have accepted writes; " + row);
        assertEquals(List.of(), s.violations(), "[" + backend + "] " + nemesis.flag() + ": no promise broken; " + row);
    }
}
