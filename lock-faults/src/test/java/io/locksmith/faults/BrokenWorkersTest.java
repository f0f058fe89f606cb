package io.locksmith.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locksmith.faults.Findings.Kind;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The suite must fail a run whose workers break the rules: the fault suite is tested like the kit,
 * with workers broken on purpose. Memory threads keep it fast; the broken logic is the worker's,
 * not the backend's. That correct workers pass is {@link ShortFaultSuiteTest}'s part.
 */
class BrokenWorkersTest {

    /** Kept after the build, so that the histories the checker judged can be read. */
    private final Path dir = Path.of("target", "faults", "broken");

    @Test
    void workersThatTakeNoLockFailTheRun() throws Exception {
        Target memory = Target.open("memory", dir);
        Duration lease = memory.lease();
        FaultRun.Result r = FaultRun.run(
                FaultRun.Plan.of(memory, Nemesis.NONE, Duration.ofSeconds(1))
                        .with(WorkerSettings.Mode.NO_LOCK, lease.dividedBy(15), lease.dividedBy(4)),
                dir.resolve("no-lock"));
        Findings f = FaultSuite.check(r);
        assertTrue(
                f.count(Kind.DOUBLE_GRANT) > 0,
                "no-lock workers: the checker must find double grants; got " + f.report());
        assertEquals("FAIL", f.verdict(), "no-lock workers: the run must fail; got " + f.report());
    }

    @Test
    void semaphoreWorkersThatTakeNoPermitFailTheRun() throws Exception {
        Target memory = Target.open("memory", dir);
        Duration lease = memory.lease();
        // three workers of a two-permit semaphore, none taking a permit: three hold at once
        FaultRun.Result r = FaultRun.run(
                FaultRun.Plan.of(memory, Nemesis.NONE, Duration.ofSeconds(1))
                        .with(WorkerSettings.Mode.NO_LOCK, lease.dividedBy(4), lease.dividedBy(2))
                        .taking(WorkerSettings.Primitive.semaphore(2)),
                dir.resolve("no-permit"));
        Findings f = FaultSuite.check(r);
        assertTrue(
                f.count(Kind.DOUBLE_GRANT) > 0,
                "no-permit workers: the checker must find more holders than permits; got " + f.report());
        assertEquals("FAIL", f.verdict(), "no-permit workers: the run must fail; got " + f.report());
    }

    @Test
    void workersThatIgnoreTheirLeaseFailTheRun() throws Exception {
        Target memory = Target.open("memory", dir);
        Duration lease = memory.lease();
        // each holds past its lease without renewing, so a waiter is granted while it still writes HELD true
        FaultRun.Result r = FaultRun.run(
                FaultRun.Plan.of(memory, Nemesis.NONE, lease.multipliedBy(3))
                        .with(
                                WorkerSettings.Mode.IGNORE_LEASE,
                                lease.multipliedBy(3).dividedBy(2),
                                lease.multipliedBy(2)),
                dir.resolve("ignore-lease"));
        Findings f = FaultSuite.check(r);
        assertTrue(
                f.count(Kind.DOUBLE_GRANT) > 0,
                "ignore-lease workers: a waiter is granted once the lease runs out,"
                        + " while the old holder still believes it holds, so the checker must find double grants; got "
                        + f.report());
        assertEquals("FAIL", f.verdict(), "ignore-lease workers: the run must fail; got " + f.report());
    }
}
