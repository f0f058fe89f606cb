package io.locksmith.faults;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suite must fail a run whose workers break the rules: the fault suite is tested like the kit,
 * with workers broken on purpose. Memory threads keep it fast; the broken logic is the worker's,
 * not the backend's. That correct workers pass is {@link ShortFaultSuiteTest}'s part.
 */
class BrokenWorkersTest {

    @TempDir
    Path dir;

    @Test
    void workersThatTakeNoLockFailTheRun() throws Exception {
        Target memory = Target.open("memory", dir);
        Duration lease = memory.lease();
        FaultRun.Result r = FaultRun.run(FaultRun.Plan.of(memory, Nemesis.NONE, Duration.ofSeconds(1))
                .with(WorkerSettings.Mode.NO_LOCK, lease.dividedBy(15), lease.dividedBy(4)), dir.resolve("no-lock"));
        RunSummary s = RunSummary.of(r.history());
        assertTrue(s.overlaps() > 0, "no-lock workers: their holds must overlap, so the run fails; got " + s);
        assertFalse(s.violations().isEmpty(), "no-lock workers: the run must report a violation; got " + s);
    }

    @Test
    void workersThatIgnoreTheirLeaseFailTheRun() throws Exception {
        Target memory = Target.open("memory", dir);
        Duration lease = memory.lease();
        // each holds past its lease without renewing, so a waiter is granted while it still writes HELD true
        FaultRun.Result r = FaultRun.run(FaultRun.Plan.of(memory, Nemesis.NONE, lease.multipliedBy(3))
                .with(WorkerSettings.Mode.IGNORE_LEASE, lease.multipliedBy(3).dividedBy(2), lease.multipliedBy(2)),
                dir.resolve("ignore-lease"));
        RunSummary s = RunSummary.of(r.history());
        assertTrue(s.overlaps() > 0, "ignore-lease workers: a waiter is granted once the lease runs out, while the"
                + " old holder still believes it holds, so holds must overlap; got " + s);
        assertFalse(s.violations().isEmpty(), "ignore-lease workers: the run must report a violation; got " + s);
    }
}
