package io.locksmith.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locksmith.faults.Findings.Kind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker on synthetic histories: a correct run shows no violation, whatever its nemeses did,
 * and each kind of fault, alone, yields exactly its count.
 */
class CheckerTest {

    /** Asserts each kind's count (documented ones included) is as given, and every other kind's is 0. */
    static void assertCounts(Findings f, Map<Kind, Integer> expected) {
        for (Kind kind : Kind.values()) {
            assertEquals(
                    expected.getOrDefault(kind, 0),
                    f.count(kind),
                    "checker: " + kind.words() + " found in this history; its findings:\n" + f.report());
        }
    }

    /**
     * Three workers take turns through every nemesis a correct backend survives: a holder killed
     * mid-hold (no RELEASE) whose lease runs out, a holder paused past its lease that wakes with
     * HELD false, a holder cut off past its lease, a server killed while a wait ends in an error,
     * and the controller's normal stop.
     */
    static CheckerHistory correctRun() {
        CheckerHistory h = new CheckerHistory();
        h.at(0, "w1", "START", 101).at(0, "w2", "START", 102).at(0, "w3", "START", 103);
        h.hold("w1", 10, 20, 1, 300);
        h.at(305, "w1", "ATTEMPT");
        h.hold("w2", 15, 305, 2, 600);
        // w3 samples at the very instant of its GRANT line
        h.grant("w3", 20, 602, 3, 900).at(602, "w3", "HELD", true);
        h.at(610, "w2", "ATTEMPT");
        // killed mid-hold: no RELEASE; w1 gets the lock once w3's lease ran out, within the margin
        h.at(1000, Event.CONTROLLER, "KILL", "w3").at(1010, Event.CONTROLLER, "EXIT", "w3", 137);
        h.at(3500, "w1", "GRANT", 4);
        for (long t = 3501; t <= 3600; t += 33) {
            h.at(t, "w1", "HELD", true);
        }
        // paused past its lease: w2 is granted meanwhile, and w1 wakes seeing it no longer holds
        h.at(3650, Event.CONTROLLER, "PAUSE", "w1");
        h.at(5700, "w2", "GRANT", 5)
                .at(5701, "w2", "HELD", true)
                .at(5999, "w2", "HELD", true)
                .release("w2", 6000, 5);
        h.at(6200, Event.CONTROLLER, "RESUME", "w1");
        h.at(6201, "w1", "HELD", false).at(6202, "w1", "LOST", "LEASE_EXPIRED");
        h.write(6203, "w1", 4).at(6204, "w1", "RELEASE").at(6205, "w1", "RELEASED");
        // cut off past its lease: w2's deadline passes before w1 is granted; its late write is refused
        h.grant("w2", 6010, 6020, 6, 6100)
                .at(6150, Event.CONTROLLER, "CUT", "w2")
                .at(8000, "w2", "HELD", true);
        h.at(8200, "w2", "HELD", false).at(8210, "w2", "LOST", "LEASE_EXPIRED");
        h.hold("w1", 6210, 8300, 7, 8800);
        h.at(9000, Event.CONTROLLER, "RESTORE", "w2");
        h.write(9001, "w2", 6).at(9002, "w2", "RELEASE").at(9003, "w2", "RELEASED");
        // the server is killed: a wait ends in an error meanwhile, another times out
        h.at(9010, "w2", "ATTEMPT").at(9100, "w1", "ATTEMPT");
        h.at(9500, Event.CONTROLLER, "SERVER_KILL");
        h.at(11000, "w1", "ERROR", "LockBackendException").at(11010, "w2", "TIMEOUT");
        h.at(11500, Event.CONTROLLER, "SERVER_UP");
        h.hold("w1", 11001, 11600, 8, 11900);
        h.hold("w2", 11011, 11950, 9, 12200);
        // the normal stop: SIGTERM interrupts a wait, the workers exit 143 and 0
        h.at(12300, "w1", "ATTEMPT")
                .at(12400, "w1", "ERROR", "LockInterruptedException")
                .at(12401, "w1", "STOP");
        h.at(12450, "w2", "STOP");
        h.at(12600, Event.CONTROLLER, "EXIT", "w1", 143).at(12601, Event.CONTROLLER, "EXIT", "w2", 0);
        return h.at(12700, Event.CONTROLLER, "END");
    }

    @Test
    void aCorrectRunBreaksNoPromise() {
        Findings f = correctRun().check("etcd");
        assertCounts(f, Map.of(Kind.WAIT_ERROR, 1));
        assertEquals(List.of(), f.violations(), "checker: a correct run must show no violation:\n" + f.report());
        assertEquals(
                List.of(
                        "1 waits ended by errors (documented: the backend could not be reached, docs/semantics.md#waiting)"),
                f.exceptions(),
                "checker: the error during the server's outage is the one documented exception");
        assertEquals(1, f.waitErrorsInOutage(), "checker: the error came while the server was down");
        assertEquals(
                "PASS with documented exceptions", f.verdict(), "checker: verdict of a correct run with an outage");
        assertEquals(9, f.grants(), "checker: grants");
        assertEquals(12, f.attempts(), "checker: attempts");
        assertEquals(1, f.timeouts(), "checker: timeouts");
        assertEquals(6, f.writesAccepted(), "checker: writes accepted");
        assertEquals(2, f.writesRejected(), "checker: writes rejected (the paused and the cut holder's)");
        assertEquals(
                Duration.ofMillis(2500), f.worstDeathToGrant().orElseThrow(), "checker: from w3's kill to w1's grant");
        assertTrue(f.worstLostNotification().isEmpty(), "checker: no wake-up was late");
    }

    @Test
    void aRunWithoutNemesesPasses() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 1, 1, 100).hold("w2", 2, 102, 2, 200).hold("w1", 101, 202, 3, 300);
        Findings f = h.check("redis");
        assertCounts(f, Map.of());
        assertEquals("PASS", f.verdict(), "checker: verdict of a clean run");
    }

    @Test
    void overlappingKnownHeldIntervalsAreDoubleGrants() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w2", 0, 300, 2, 400).hold("w1", 0, 100, 1, 500);
        assertCounts(h.check("etcd"), Map.of(Kind.DOUBLE_GRANT, 1));
    }

    @Test
    void aSemaphoreMayHaveAsManyHoldersAsPermitsAndNoMore() {
        CheckerHistory two = new CheckerHistory();
        two.permit("w1", 0, 10, 1, 400).permit("w2", 0, 20, 2, 300).permit("w3", 0, 310, 3, 500);
        assertEquals("PASS", two.checkPermits("etcd", 2).verdict(), "checker: two holders of two permits");

        CheckerHistory three = new CheckerHistory();
        three.permit("w1", 0, 10, 1, 400).permit("w2", 0, 20, 2, 300).permit("w3", 0, 200, 3, 500);
        assertCounts(three.checkPermits("etcd", 2), Map.of(Kind.DOUBLE_GRANT, 1));
        assertCounts(three.checkPermits("etcd", 3), Map.of());
        assertCounts(three.check("etcd"), Map.of(Kind.DOUBLE_GRANT, 3));
    }

    @Test
    void concurrentPermitsAnsweredOutOfTokenOrderAreNoRegression() {
        // both waits began before either grant: the server may have made w2's grant (token 1)
        // first and its answer come second, as two permits of one release can
        CheckerHistory raced = new CheckerHistory();
        raced.permit("w3", 0, 100, 2, 400).permit("w2", 5, 101, 1, 300);
        assertEquals("PASS", raced.checkPermits("memory", 2).verdict(), "checker: permits answered out of order");

        // w2's wait began after w3's grant was answered: its grant was made later and needs a higher token
        CheckerHistory behind = new CheckerHistory();
        behind.permit("w3", 0, 100, 2, 400).permit("w2", 150, 200, 1, 300);
        assertCounts(behind.checkPermits("memory", 2), Map.of(Kind.TOKEN_REGRESSION, 1));
    }

    @Test
    void grantsAtTheSameInstantAreADoubleGrant() {
        CheckerHistory h = new CheckerHistory();
        h.at(0, "w1", "ATTEMPT").at(0, "w2", "ATTEMPT");
        h.at(100, "w1", "GRANT", 1)
                .at(100, "w2", "GRANT", 2)
                .at(100, "w1", "HELD", true)
                .at(100, "w2", "HELD", true);
        h.release("w1", 150, 1).release("w2", 160, 2);
        assertCounts(h.check("etcd"), Map.of(Kind.DOUBLE_GRANT, 1));
    }

    @Test
    void aLastSampleAtTheNextGrantsInstantOverlapsIt() {
        CheckerHistory h = new CheckerHistory();
        h.grant("w1", 0, 10, 1, 200).release("w1", 201, 1);
        h.at(5, "w2", "ATTEMPT")
                .at(200, "w2", "GRANT", 2)
                .at(200, "w2", "HELD", true)
                .release("w2", 300, 2);
        assertCounts(h.check("etcd"), Map.of(Kind.DOUBLE_GRANT, 1));
    }

    @Test
    void aGrantWithoutAHeldTrueSampleOverlapsNothing() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 10, 1, 500);
        // w2 logged a grant it was never seen to believe in (killed at once, or lost while paused)
        h.at(5, "w2", "ATTEMPT").at(200, "w2", "GRANT", 2).at(201, "w2", "HELD", false);
        assertCounts(h.check("etcd"), Map.of());
    }

    @Test
    void aGrantWhoseWholeWaitLiesInsideAnothersKnownHeldIntervalOverlapsIt() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 10, 1, 500);
        // w2 began to wait and was granted while w1 believed it held, then was killed before a sample
        h.at(100, "w2", "ATTEMPT").at(200, "w2", "GRANT", 2).at(201, Event.CONTROLLER, "KILL", "w2");
        assertCounts(h.check("etcd"), Map.of(Kind.DOUBLE_GRANT, 1));
    }

    @Test
    void aHolderResumedStillBelievingAfterAnotherGrantWokeBelieving() {
        CheckerHistory h = new CheckerHistory();
        h.grant("w1", 0, 100, 1, 110).at(150, Event.CONTROLLER, "PAUSE", "w1");
        h.hold("w2", 50, 2300, 2, 2500);
        h.at(3000, Event.CONTROLLER, "RESUME", "w1")
                .at(3001, "w1", "HELD", true)
                .release("w1", 3002, 1);
        // the woken holder's belief overlaps w2's grant too; its write comes after w2's, refused
        assertCounts(h.check("zookeeper"), Map.of(Kind.WOKE_BELIEVING, 1, Kind.DOUBLE_GRANT, 1));
    }

    @Test
    void aWriteAcceptedAfterALaterGrantsWriteIsStale() {
        CheckerHistory h = new CheckerHistory();
        h.grant("w1", 0, 100, 10, 150);
        h.hold("w2", 50, 1000, 9, 1100);
        h.write(1200, "w1", 10).at(1201, "w1", "RELEASE").at(1202, "w1", "RELEASED");
        // w2's token is below w1's although w2 was granted later: a regression too
        assertCounts(h.check("etcd"), Map.of(Kind.STALE_ACCEPTED, 1, Kind.TOKEN_REGRESSION, 1));
    }

    @Test
    void theLatestGrantsWriteRejectedIsALiveWriteRejected() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 100, 10, 500).hold("w2", 50, 600, 7, 900);
        assertCounts(h.check("etcd"), Map.of(Kind.LIVE_REJECTED, 1, Kind.TOKEN_REGRESSION, 1));
    }

    @Test
    void aSmallerTokenOnALaterGrantIsARegression() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 10, 5, 100).hold("w2", 20, 110, 7, 200).hold("w1", 150, 210, 6, 300);
        Findings f = h.check("etcd");
        assertCounts(f, Map.of(Kind.TOKEN_REGRESSION, 1, Kind.LIVE_REJECTED, 1));
        String example = f.examples(Kind.TOKEN_REGRESSION).get(0);
        assertTrue(
                example.contains("w1 GRANT 6 after") && example.contains("w2 GRANT 7"),
                "checker: the regression's example names both grants: " + example);
    }

    @Test
    void aGrantLoggedLateAfterAPauseIsNoRegression() {
        // w2's acquisition returned before w1's, then w2 stopped before logging it and lost the lock:
        // the log cannot order the two grants, so the smaller token proves nothing
        CheckerHistory h = new CheckerHistory();
        h.at(0, "w2", "ATTEMPT").at(10, Event.CONTROLLER, "PAUSE", "w2");
        h.hold("w1", 5, 2500, 7, 2600);
        h.at(3000, Event.CONTROLLER, "RESUME", "w2").at(3001, "w2", "GRANT", 6).at(3002, "w2", "HELD", false);
        h.at(3003, "w2", "LOST", "LEASE_EXPIRED")
                .write(3004, "w2", 6)
                .at(3005, "w2", "RELEASE")
                .at(3006, "w2", "RELEASED");
        assertCounts(h.check("etcd"), Map.of());
    }

    @Test
    void twoGrantsWithOneTokenAreADuplicate() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 10, 5, 100).hold("w2", 20, 110, 5, 200);
        assertCounts(h.check("etcd"), Map.of(Kind.DUPLICATE_TOKEN, 1, Kind.LIVE_REJECTED, 1));
    }

    @Test
    void aKilledHoldersLockGrantedAfterTheLeaseAndMarginIsLate() {
        CheckerHistory h = new CheckerHistory();
        h.grant("w1", 0, 10, 1, 900).at(20, "w2", "ATTEMPT");
        h.at(1000, Event.CONTROLLER, "KILL", "w1").at(1001, Event.CONTROLLER, "EXIT", "w1", 137);
        h.at(4500, "w2", "GRANT", 2).at(4501, "w2", "HELD", true).release("w2", 4600, 2);
        Findings f = h.check("etcd");
        assertCounts(f, Map.of(Kind.SLOW_DEATH_TO_GRANT, 1));
        assertEquals(Duration.ofMillis(3500), f.worstDeathToGrant().orElseThrow(), "checker: worst death→grant");
    }

    @Test
    void aKilledWaiterIsNoKilledHolder() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 10, 1, 100).at(101, "w1", "ATTEMPT").hold("w2", 20, 150, 2, 200);
        h.at(1000, Event.CONTROLLER, "KILL", "w1").at(9000, Event.CONTROLLER, "END");
        Findings f = h.check("etcd");
        assertCounts(f, Map.of());
        assertTrue(f.worstDeathToGrant().isEmpty(), "checker: no holder was killed");
    }

    @Test
    void anErrorWhileNothingWasDownIsAFault() {
        CheckerHistory h = new CheckerHistory();
        h.at(0, "w1", "ATTEMPT").at(500, "w1", "ERROR", "LockBackendException");
        // a cut of another worker excuses nobody else
        h.at(600, Event.CONTROLLER, "CUT", "w2")
                .at(700, "w1", "ATTEMPT")
                .at(900, "w1", "ERROR", "LockBackendException");
        h.at(1000, Event.CONTROLLER, "RESTORE", "w2").at(1001, "w1", "ATTEMPT");
        Findings f = h.check("etcd");
        assertCounts(f, Map.of(Kind.WAIT_ERROR, 2));
        assertEquals(0, f.waitErrorsInOutage(), "checker: no outage struck w1");
        assertEquals("FAIL", f.verdict(), "checker: errors outside an outage fail the run");
    }

    @Test
    void unexpectedExitsAreCrashesAndHangsAreCounted() {
        CheckerHistory h = new CheckerHistory();
        h.at(100, Event.CONTROLLER, "KILL", "w2").at(110, Event.CONTROLLER, "EXIT", "w2", 137);
        h.at(200, Event.CONTROLLER, "EXIT", "w1", 1).at(210, Event.CONTROLLER, "EXIT", "w3", 143);
        h.at(220, Event.CONTROLLER, "HUNG", "w4").at(230, Event.CONTROLLER, "EXIT", "w4", 137);
        // w2 ran again after its kill and failed; w4's 137 is the controller's kill of a hung worker
        h.at(240, Event.CONTROLLER, "EXIT", "w2", 1);
        assertCounts(h.check("etcd"), Map.of(Kind.CRASHED, 2, Kind.HUNG, 1));
    }

    @Test
    void aWaiterLeftWaitingPastTheWakeUpPromiseIsALostNotification() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 10, 1, 1000).at(500, "w2", "ATTEMPT");
        h.at(2500, "w2", "GRANT", 2)
                .at(2501, "w2", "HELD", true)
                .release("w2", 2600, 2)
                .at(5000, Event.CONTROLLER, "END");
        Findings f = h.check("redis");
        assertCounts(f, Map.of(Kind.LOST_NOTIFICATION, 1));
        assertEquals(
                Duration.ofMillis(1499),
                f.worstLostNotification().orElseThrow(),
                "checker: from RELEASED to the next grant");
    }

    @Test
    void aWakeUpLateDuringAServerPauseIsNotCounted() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 10, 1, 1000).at(500, "w2", "ATTEMPT");
        h.at(1100, Event.CONTROLLER, "SERVER_PAUSE").at(2000, Event.CONTROLLER, "SERVER_RESUME");
        h.at(2500, "w2", "GRANT", 2)
                .at(2501, "w2", "HELD", true)
                .release("w2", 2600, 2)
                .at(9000, Event.CONTROLLER, "END");
        assertCounts(h.check("redis"), Map.of());
    }

    @Test
    void aTornLastLineIsDroppedAndTheRestChecked(@TempDir Path dir) throws IOException {
        Path w1 = dir.resolve("w1.log");
        Path w2 = dir.resolve("w2.log");
        Path ledger = dir.resolve("ledger.log");
        try (EventLog log = new EventLog(w1, "w1")) {
            log.write(1_000_000L, "ATTEMPT");
            log.write(2_000_000L, "GRANT", 1);
            log.write(3_000_000L, "HELD", true);
        }
        // w1 was killed in the middle of this line: it never ended
        Files.writeString(w1, "400000000 w1 HELD tr", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        try (EventLog log = new EventLog(w2, "w2")) {
            log.write(1_500_000L, "ATTEMPT");
            log.write(300_000_000L, "GRANT", 2);
            log.write(301_000_000L, "HELD", true);
            log.write(302_000_000L, "WRITE", 2);
        }
        try (EventLog log = new EventLog(ledger, Event.LEDGER)) {
            log.write(302_000_000L, "ACCEPT", "w2", 2);
        }
        History history = History.read(List.of(w1, w2, ledger));
        assertFalse(history.events().stream().anyMatch(e -> e.nanos() == 400_000_000L), "History drops the torn line");
        Findings f = Checker.check(history, CheckerHistory.settings("etcd"));
        assertCounts(f, Map.of());
        assertEquals(2, f.grants(), "checker: grants");
        assertEquals(1, f.writesAccepted(), "checker: writes accepted");
    }

    /** w1 is granted before a Redis restart without persistence, w2 after it with the counter back at 1. */
    static CheckerHistory redisRestart() {
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 10, 50, 100);
        h.at(200, Event.CONTROLLER, "SERVER_KILL").at(300, Event.CONTROLLER, "SERVER_UP");
        return h.hold("w2", 150, 400, 1, 500);
    }

    @Test
    void tokensGoingBackAfterARedisRestartAreDocumented() {
        Findings redis = redisRestart().check("redis");
        assertCounts(redis, Map.of(Kind.TOKEN_REGRESSION, 1, Kind.LIVE_REJECTED, 1));
        assertEquals(
                List.of(),
                redis.violations(),
                "checker: Redis's docs admit tokens going back after a restart:\n" + redis.report());
        assertEquals(
                List.of(
                        "1 live writes rejected (documented: Redis restarted without persistence, docs/backends/redis.md#guarantees-exactly)",
                        "1 token regressions (documented: Redis restarted without persistence, docs/backends/redis.md#guarantees-exactly)"),
                redis.exceptions().stream().sorted().toList(),
                "checker: each documented exception names its reason");
        assertEquals("PASS with documented exceptions", redis.verdict(), "checker: verdict on Redis");

        Findings etcd = redisRestart().check("etcd");
        assertEquals(0, etcd.documentedCount(Kind.TOKEN_REGRESSION), "checker: etcd's docs admit no token going back");
        assertEquals(2, etcd.violations().size(), "checker: on etcd both are violations: " + etcd.violations());
        assertEquals("FAIL", etcd.verdict(), "checker: verdict on etcd");
    }

    @Test
    void tokensGoingBackAfterAzuriteIsKilledAreDocumentedAsTheEmulators() {
        Findings azurite = redisRestart().check("azurite");
        assertEquals(
                List.of(),
                azurite.violations(),
                "checker: Azurite saves its state every 5 s, so a kill loses the last counter writes:\n"
                        + azurite.report());
        assertEquals("PASS with documented exceptions", azurite.verdict(), "checker: verdict on Azurite");
    }

    @Test
    void aRegressionLongAfterTheRestartIsNotAdmitted() {
        CheckerHistory h = redisRestart();
        // both grants come after the restart has settled: the restart explains nothing between them
        h.hold("w2", 501, 5000, 3, 5100).hold("w1", 5050, 5200, 2, 5300);
        Findings f = h.check("redis");
        assertEquals(3, f.count(Kind.TOKEN_REGRESSION), "checker: w2's 1 and 3 and w1's 2 went back:\n" + f.report());
        assertEquals(
                2,
                f.documentedCount(Kind.TOKEN_REGRESSION),
                "checker: w2's two cross the restart, w1's 2 after w2's 3 does not:\n" + f.report());
        assertEquals("FAIL", f.verdict(), "checker: an unexplained regression fails the run on Redis too");
    }

    @Test
    void aSecondHolderAfterASentinelFailoverIsDocumentedUntilTheOldMasterIsBack() {
        CheckerHistory h = new CheckerHistory();
        // w1's grant never reached the replica: the promoted master grants w2 while w1 still holds
        h.grant("w1", 0, 100, 10, 1000).at(200, Event.CONTROLLER, "FAILOVER");
        h.at(150, "w2", "ATTEMPT").at(900, "w2", "GRANT", 9).at(901, "w2", "HELD", true);
        h.at(3000, "w3", "ATTEMPT").at(5000, "w3", "ERROR", "LockBackendException");
        h.release("w2", 1500, 9).release("w1", 1600, 10);
        h.at(7000, Event.CONTROLLER, "SERVER_UP");
        Findings f = h.check("redis-sentinel");
        assertCounts(
                f, Map.of(Kind.DOUBLE_GRANT, 1, Kind.TOKEN_REGRESSION, 1, Kind.STALE_ACCEPTED, 1, Kind.WAIT_ERROR, 1));
        assertEquals(
                List.of(), f.violations(), "checker: Redis's docs admit all of these after a failover:\n" + f.report());
        assertEquals(1, f.waitErrorsInOutage(), "checker: w3's wait ended while the master was down");
    }

    @Test
    void aSecondHolderAfterAClusterFailoverIsDocumentedAsAfterASentinelFailover() {
        CheckerHistory h = new CheckerHistory();
        h.grant("w1", 0, 100, 10, 1000).at(200, Event.CONTROLLER, "FAILOVER");
        h.at(150, "w2", "ATTEMPT").at(900, "w2", "GRANT", 9).at(901, "w2", "HELD", true);
        h.release("w2", 1500, 9).release("w1", 1600, 10);
        h.at(7000, Event.CONTROLLER, "SERVER_UP");
        Findings f = h.check("redis-cluster");
        assertCounts(f, Map.of(Kind.DOUBLE_GRANT, 1, Kind.TOKEN_REGRESSION, 1, Kind.STALE_ACCEPTED, 1));
        assertEquals(
                List.of(),
                f.violations(),
                "checker: Redis's docs admit these after a Cluster failover:\n" + f.report());
    }

    @Test
    void aSlotMigrationExcusesWaitErrorsButNoSecondHolder() {
        CheckerHistory h = new CheckerHistory();
        h.grant("w1", 0, 100, 10, 1000).at(200, Event.CONTROLLER, "MIGRATE", 4242);
        // w3's attempts met TRYAGAIN until the slot had its new owner
        h.at(300, "w3", "ATTEMPT").at(700, "w3", "ERROR", "LockBackendException");
        h.at(150, "w2", "ATTEMPT").at(900, "w2", "GRANT", 9).at(901, "w2", "HELD", true);
        h.release("w2", 1500, 9).release("w1", 1600, 10);
        h.at(1700, Event.CONTROLLER, "MIGRATED", 4242);
        // long after the migration (and its recovery) nothing excuses an error
        h.at(6000, "w3", "ATTEMPT").at(6500, "w3", "ERROR", "LockBackendException");
        h.at(8000, Event.CONTROLLER, "STOPPING");
        Findings f = h.check("redis-cluster");
        assertCounts(
                f, Map.of(Kind.DOUBLE_GRANT, 1, Kind.TOKEN_REGRESSION, 1, Kind.STALE_ACCEPTED, 1, Kind.WAIT_ERROR, 2));
        assertEquals(1, f.waitErrorsInOutage(), "checker: w3's first error came while the slot moved:\n" + f.report());
        assertEquals(
                0,
                f.documentedCount(Kind.DOUBLE_GRANT),
                "checker: a migration admits no second holder, the docs say locks keep working through it:\n"
                        + f.report());
        assertEquals(0, f.documentedCount(Kind.TOKEN_REGRESSION), "checker: nor tokens going back:\n" + f.report());
        assertEquals("FAIL", f.verdict(), "checker: verdict after a migration that broke the lock");
    }

    @Test
    void tokensGoingBackAfterAPersistentRedisRestartAreViolations() {
        Findings f = redisRestart().check("redis-aof");
        assertEquals(
                0,
                f.documentedCount(Kind.TOKEN_REGRESSION) + f.documentedCount(Kind.LIVE_REJECTED),
                "checker: a Redis with appendfsync always admits nothing after a restart:\n" + f.report());
        assertEquals(
                2,
                f.violations().size(),
                "checker: the regression and the rejected live write are violations: " + f.violations());
        assertEquals("FAIL", f.verdict(), "checker: verdict on a persistent Redis whose tokens went back");
    }

    @Test
    void findingsPrintAsOneTableRowUnderTheHeader() {
        Findings f = redisRestart().check("redis");
        String header = Findings.header().lines().findFirst().orElseThrow();
        String row = f.row("redis", "server-kill");
        assertTrue(
                row.startsWith("redis ") && row.endsWith(" PASS with documented exceptions"),
                "checker: the row: " + row);
        assertTrue(row.contains(" 1*/0 "), "checker: the row shows the documented regression with a star: " + row);
        int at = 0;
        for (String title : List.of(
                "backend",
                "nemesis",
                "grants",
                "attempts/timeouts",
                "writes ok/rejected",
                "double",
                "woke",
                "stale ok",
                "live rej",
                "regress/dup",
                "death→grant ms",
                "wait errors",
                "crash/hung",
                "lost wake-ups",
                "verdict")) {
            at = header.indexOf(title, at);
            assertTrue(at >= 0, "checker: the header has the column " + title + ": " + header);
            assertTrue(
                    row.charAt(at) != ' ' && (at == 0 || row.charAt(at - 1) == ' '),
                    "checker: the row's cell for " + title + " starts under its title:\n" + header + "\n" + row);
        }
        assertTrue(
                correctRun().check("etcd").row("etcd", "everything").contains("2500 (lease 2000)"),
                "checker: the worst death→grant against the lease: "
                        + correctRun().check("etcd").row("etcd", "everything"));
    }

    @Test
    void workersThatOnlyPretendToLockFailWithTheirCounts() {
        // the suite's no-lock mode: each worker makes up its own increasing tokens and holds at will
        CheckerHistory h = new CheckerHistory();
        h.hold("w1", 0, 10, 1, 100)
                .hold("w2", 5, 50, 1, 150)
                .hold("w1", 101, 120, 2, 200)
                .hold("w2", 151, 160, 2, 250);
        Findings f = h.check("memory");
        assertCounts(f, Map.of(Kind.DOUBLE_GRANT, 3, Kind.DUPLICATE_TOKEN, 2, Kind.LIVE_REJECTED, 2));
        assertEquals("FAIL", f.verdict(), "checker: a run without a lock fails");
        assertTrue(
                f.violations()
                        .get(0)
                        .startsWith("3 double grants, e.g. 10000000 w1 GRANT 1 … 99000000 w1 HELD true overlaps"),
                "checker: a violation's line counts it and shows an example: " + f.violations());
    }

    @Test
    void settingsCarryEachBackendsPromises() {
        Duration lease = Duration.ofSeconds(2);
        Duration backoffMax = Duration.ofMillis(800);
        assertEquals(
                Duration.ofSeconds(1),
                CheckerSettings.forBackend("redis", lease, backoffMax).wakeUp(),
                "checker: Redis wakes waiters by pub/sub, within about a second");
        assertEquals(
                Duration.ofMillis(1300),
                CheckerSettings.forBackend("mariadb", lease, backoffMax).wakeUp(),
                "checker: MariaDB's waiters poll: the back-off maximum plus half a second");
        assertEquals(
                Duration.ofMillis(1300),
                CheckerSettings.forBackend("azurite", lease, backoffMax).wakeUp(),
                "checker: Azure's waiters poll");
        assertEquals(
                2,
                CheckerSettings.forBackend("redis-sentinel", lease, backoffMax)
                        .admissions()
                        .size(),
                "checker: Redis admits faults after a restart and after a failover");
        assertEquals(
                2,
                CheckerSettings.forBackend("redis-cluster", lease, backoffMax)
                        .admissions()
                        .size(),
                "checker: a Redis Cluster admits what a plain and a Sentinel Redis do");
        assertEquals(
                List.of(),
                CheckerSettings.forBackend("redis-aof", lease, backoffMax).admissions(),
                "checker: a Redis that syncs its append-only file on every write admits nothing");
        assertEquals(
                List.of(),
                CheckerSettings.forBackend("etcd", lease, backoffMax).admissions(),
                "checker: etcd admits nothing");
        assertEquals(
                List.of(),
                CheckerSettings.forBackend("zookeeper", lease, backoffMax).admissions(),
                "checker: ZooKeeper admits nothing");
        assertEquals(
                java.util.Set.of(0, 143),
                CheckerSettings.forBackend("sqlite", lease, backoffMax).normalExits(),
                "checker: a normal stop exits 0, or 143 on SIGTERM");
    }
}
