package io.locksmith.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerTest {

    @TempDir
    Path dir;

    @Test
    void acceptsOnlyATokenGreaterThanEveryAcceptedOne() throws Exception {
        Path history = dir.resolve("ledger.history");
        try (Ledger ledger = Ledger.start(history);
                LedgerClient w1 = new LedgerClient(ledger.port());
                LedgerClient w2 = new LedgerClient(ledger.port())) {
            assertTrue(w1.write("w1", 5).accepted(), "ledger: the first token is accepted");
            LedgerClient.Answer stale = w2.write("w2", 3);
            assertFalse(stale.accepted(), "ledger: a token lower than the highest accepted is rejected");
            assertEquals(5, stale.highest(), "ledger: a rejection names the highest token accepted");
            assertFalse(w2.write("w2", 5).accepted(), "ledger: a token equal to the highest accepted is rejected");
            assertTrue(w2.write("w2", 6).accepted(), "ledger: a greater token is accepted");
        }
        List<String> lines = History.read(List.of(history)).events().stream()
                .map(e -> e.source() + " " + e.kind() + " " + String.join(" ", e.fields()))
                .toList();
        assertEquals(
                List.of("ledger ACCEPT w1 5", "ledger REJECT w2 3 5", "ledger REJECT w2 5 5", "ledger ACCEPT w2 6"),
                lines,
                "ledger: every decision is logged, in the order taken");
    }

    @Test
    void workerSettingsSurviveTheirCommandLine() {
        WorkerSettings s = new WorkerSettings(
                "w3",
                "faults:x",
                dir.resolve("w3.history"),
                4242,
                java.time.Duration.ofSeconds(9),
                java.time.Duration.ofMillis(200),
                java.time.Duration.ofMillis(750),
                java.util.Optional.of(java.time.Duration.ofSeconds(3)),
                WorkerSettings.Mode.IGNORE_LEASE,
                WorkerSettings.Primitive.semaphore(2));
        assertEquals(
                s,
                WorkerSettings.parse(s.toArgs().toArray(String[]::new)),
                "worker settings: what toArgs writes, parse reads back");
        for (WorkerSettings.Primitive p : java.util.List.of(
                WorkerSettings.Primitive.LOCK,
                WorkerSettings.Primitive.LEADER,
                WorkerSettings.Primitive.semaphore(3))) {
            assertEquals(p, WorkerSettings.Primitive.ofFlag(p.flag()), "primitive " + p.flag() + " reads back");
        }
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> WorkerSettings.Primitive.ofFlag("semaphore:0"));
    }
}
