package io.locksmith.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes synthetic histories for the checker's tests, in milliseconds from 0: single lines, and
 * whole holds as a correct worker logs them, with the fenced ledger's answers.
 */
final class CheckerHistory {

    static final Duration LEASE = Duration.ofSeconds(2);

    private final List<Event> events = new ArrayList<>();
    private long highest = Long.MIN_VALUE;

    /** @return settings for a backend with a 2 s lease, 1 s margin and wake-up, 2 s recovery */
    static CheckerSettings settings(String backend) {
        return CheckerSettings.forBackend(backend, LEASE, Duration.ofMillis(500))
                .withMargin(Duration.ofSeconds(1))
                .withWakeUp(Duration.ofSeconds(1))
                .withRecovery(Duration.ofSeconds(2));
    }

    CheckerHistory at(long ms, String source, String kind, Object... fields) {
        events.add(new Event(
                ms * 1_000_000,
                source,
                kind,
                Arrays.stream(fields).map(String::valueOf).toList()));
        return this;
    }

    /** A write of the grant's token to the ledger at {@code ms}, answered as the fenced ledger answers. */
    CheckerHistory write(long ms, String worker, long token) {
        at(ms, worker, "WRITE", token);
        if (token > highest) {
            highest = token;
            at(ms, Event.LEDGER, "ACCEPT", worker, token);
            return at(ms, worker, "ACCEPTED", token);
        }
        at(ms, Event.LEDGER, "REJECT", worker, token, highest);
        return at(ms, worker, "REJECTED", token);
    }

    /** A grant believed held from {@code grantMs} to {@code heldMs}: GRANT, then HELD true samples. */
    CheckerHistory grant(String worker, long attemptMs, long grantMs, long token, long heldMs) {
        at(attemptMs, worker, "ATTEMPT");
        at(grantMs, worker, "GRANT", token);
        for (long t = grantMs + 1; t < heldMs; t += Math.max(1, (heldMs - grantMs) / 4)) {
            at(t, worker, "HELD", true);
        }
        return at(heldMs, worker, "HELD", true);
    }

    /** The end of a correct hold: the write, then RELEASE and RELEASED. */
    CheckerHistory release(String worker, long ms, long token) {
        write(ms, worker, token);
        at(ms, worker, "RELEASE");
        return at(ms + 1, worker, "RELEASED");
    }

    /** A whole correct hold: ATTEMPT, GRANT, samples, the write, RELEASE, RELEASED at {@code releaseMs + 1}. */
    CheckerHistory hold(String worker, long attemptMs, long grantMs, long token, long releaseMs) {
        grant(worker, attemptMs, grantMs, token, releaseMs - 1);
        return release(worker, releaseMs, token);
    }

    /** A whole hold of a semaphore's permit: as {@link #hold}, without the write (its holders share the name). */
    CheckerHistory permit(String worker, long attemptMs, long grantMs, long token, long releaseMs) {
        grant(worker, attemptMs, grantMs, token, releaseMs - 1);
        at(releaseMs, worker, "RELEASE");
        return at(releaseMs + 1, worker, "RELEASED");
    }

    History history() {
        return new History(events);
    }

    Findings check(String backend) {
        return Checker.check(history(), settings(backend));
    }

    /** @return the findings of a run whose workers took one permit each of a semaphore of {@code permits} */
    Findings checkPermits(String backend, int permits) {
        return Checker.check(history(), settings(backend).withPermits(permits));
    }
}
