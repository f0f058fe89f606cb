package io.locksmith.faults;

import io.locksmith.faults.CheckerPromises.Admission;
import io.locksmith.faults.CheckerRun.Grant;
import io.locksmith.faults.CheckerRun.Wait;
import io.locksmith.faults.CheckerRun.Window;
import io.locksmith.faults.Findings.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads one run's {@link History} and counts what went wrong ({@link Findings}).
 *
 * <p>Every count is sound: a correct backend cannot produce one, because each rests on what the log
 * proves rather than on what it suggests. Two grants overlap only where both workers are known to
 * have believed they held ({@link CheckerRun}); an order between grants counts only where the log
 * proves it ({@link CheckerRun#knownAfter}); a wait, a wake-up or a freed lock is owed only while no
 * nemesis could excuse it. What the log cannot prove is not counted: the checker may miss a fault,
 * never invent one.
 *
 * <pre>{@code
 * Findings f = Checker.check(History.read(files), CheckerSettings.forBackend("etcd", lease, backoffMax));
 * System.out.println(f.row("etcd", "kill-holder"));
 * }</pre>
 */
public final class Checker {

    private final CheckerRun run;
    private final CheckerSettings settings;
    private final Findings findings;

    private Checker(History history, CheckerSettings settings) {
        this.run = new CheckerRun(history);
        this.settings = settings;
        this.findings = new Findings(settings.lease());
    }

    /**
     * @param history  a run's history
     * @param settings the lease, margins, promises and admissions to hold it to
     * @return what the run's history shows
     */
    public static Findings check(History history, CheckerSettings settings) {
        Checker c = new Checker(history, settings);
        c.totals(history);
        c.doubleGrants();
        c.wokeBelieving();
        c.ledger();
        c.tokens();
        c.deathToGrant();
        c.waitErrors();
        c.exits();
        c.lostNotifications();
        return c.findings;
    }

    private void totals(History history) {
        Map<String, Integer> n = new HashMap<>();
        for (Event e : history.events()) {
            n.merge(e.source().equals(Event.LEDGER) ? "ledger " + e.kind() : e.kind(), 1, Integer::sum);
        }
        boolean ledger = !run.ledger.isEmpty();
        findings.totals(new Findings.Totals(
                n.getOrDefault("ATTEMPT", 0),
                run.grants.size(),
                n.getOrDefault("TIMEOUT", 0),
                n.getOrDefault(ledger ? "ledger ACCEPT" : "ACCEPTED", 0),
                n.getOrDefault(ledger ? "ledger REJECT" : "REJECTED", 0)));
    }

    /**
     * A later grant overlaps a live one if it was logged within the live one's known-held interval
     * and was believed held then: it has a known-held interval of its own, or its wait began inside
     * that interval too, so its acquisition returned (and its worker believed it) inside it.
     */
    private void doubleGrants() {
        if (settings.permits() > 1) {
            overGrants(settings.permits());
            return;
        }
        List<Grant> grants = run.grants;
        for (int i = 0; i < grants.size(); i++) {
            Grant g = grants.get(i);
            if (!g.live()) {
                continue;
            }
            for (int j = i + 1; j < grants.size() && grants.get(j).start() <= g.end(); j++) {
                Grant h = grants.get(j);
                if (h.live() || h.attempt >= g.start()) {
                    findings.add(
                            Kind.DOUBLE_GRANT, held(g) + " overlaps " + held(h), admitted(Kind.DOUBLE_GRANT, g, h));
                }
            }
        }
    }

    /**
     * More holders than a semaphore's permits: a grant made (and believed) while {@code permits}
     * earlier grants were each known held. Every one of those intervals contains the later grant's
     * start, so all of them and it held at that instant.
     */
    private void overGrants(int permits) {
        List<Grant> grants = run.grants;
        for (int j = 0; j < grants.size(); j++) {
            Grant h = grants.get(j);
            List<Grant> holding = new ArrayList<>();
            for (int i = 0; i < j; i++) {
                Grant g = grants.get(i);
                if (g.live()
                        && g.start() <= h.start()
                        && h.start() <= g.end()
                        && (h.live() || h.attempt >= g.start())) {
                    holding.add(g);
                }
            }
            if (holding.size() >= permits) {
                String reason = null;
                for (Grant g : holding) {
                    reason = admitted(Kind.DOUBLE_GRANT, g, h);
                    if (reason == null) {
                        break;
                    }
                }
                findings.add(
                        Kind.DOUBLE_GRANT,
                        held(h) + " is one of " + (holding.size() + 1) + " holders of " + permits + " permits, with "
                                + holding.stream().map(Checker::held).toList(),
                        reason);
            }
        }
    }

    private void wokeBelieving() {
        if (settings.permits() > 1) {
            return; // another permit's grant during a pause is no fault; a pause that ends in one too many is
            // overGrants's
        }
        for (Window pause : run.windows) {
            if (!pause.kind().equals("PAUSE") || pause.end() == Long.MAX_VALUE) {
                continue;
            }
            Grant g = run.openGrant(pause.worker(), pause.start());
            if (g == null || !g.live() || g.end() < pause.end()) {
                continue;
            }
            run.grants.stream()
                    .filter(o -> !o.worker.equals(g.worker)
                            && CheckerRun.knownAfter(g, o, settings.permits())
                            && o.start() >= pause.start()
                            && o.start() <= g.end())
                    .findFirst()
                    .ifPresent(o -> findings.add(
                            Kind.WOKE_BELIEVING,
                            pause.begin().line() + " | " + o.grant.line() + " | " + g.lastHeld.line() + " (of "
                                    + g.grant.line() + ")",
                            admitted(Kind.WOKE_BELIEVING, g, o)));
        }
    }

    /** Stale writes the ledger accepted, live ones it rejected: each a token out of grant order. */
    private void ledger() {
        List<Grant> accepted = new ArrayList<>();
        for (Event e : run.ledger) {
            Long token = CheckerRun.token(e, 1);
            Grant g = token == null ? null : run.grantOf(e.field(0), token, e.nanos());
            if (g == null) {
                continue;
            }
            if (e.kind().equals("ACCEPT")) {
                List<Grant> later = accepted.stream()
                        .filter(h -> CheckerRun.knownAfter(g, h, settings.permits()))
                        .toList();
                pair(
                        Kind.STALE_ACCEPTED,
                        g,
                        later,
                        false,
                        h -> e.line() + " (of " + g.grant.line() + ") after a later grant's " + h.grant.line());
                accepted.add(g);
            } else if (e.kind().equals("REJECT") && accepted.stream().noneMatch(h -> h.start() > g.start())) {
                List<Grant> earlier = accepted.stream()
                        .filter(h -> h.token >= g.token && CheckerRun.knownAfter(h, g, settings.permits()))
                        .toList();
                pair(
                        Kind.LIVE_REJECTED,
                        g,
                        earlier,
                        true,
                        h -> e.line() + " (of " + g.grant.line()
                                + ", the latest grant to write) as not above the earlier " + h.grant.line());
            }
        }
    }

    private void tokens() {
        for (int i = 0; i < run.grants.size(); i++) {
            Grant h = run.grants.get(i);
            List<Grant> above = new ArrayList<>();
            List<Grant> same = new ArrayList<>();
            for (int j = 0; j < i; j++) {
                Grant g = run.grants.get(j);
                if (g.token > h.token && CheckerRun.knownAfter(g, h, settings.permits())) {
                    above.add(g);
                } else if (g.token == h.token) {
                    same.add(g);
                }
            }
            pair(Kind.TOKEN_REGRESSION, h, above, true, g -> h.grant.line() + " after " + g.grant.line());
            pair(Kind.DUPLICATE_TOKEN, h, same, true, g -> h.grant.line() + " repeats " + g.grant.line());
        }
    }

    /**
     * Counts one finding about {@code subject} if any of {@code witnesses} shows it: a violation if
     * the docs admit none of the pairs it makes with them, else a documented exception.
     *
     * @param subjectLater whether the subject is the later grant of each pair
     */
    private void pair(
            Kind kind, Grant subject, List<Grant> witnesses, boolean subjectLater, Function<Grant, String> example) {
        Grant documented = null;
        String reason = null;
        for (Grant w : witnesses) {
            String r = subjectLater ? admitted(kind, w, subject) : admitted(kind, subject, w);
            if (r == null) {
                findings.add(kind, example.apply(w), null);
                return;
            }
            if (documented == null) {
                documented = w;
                reason = r;
            }
        }
        if (documented != null) {
            findings.add(kind, example.apply(documented), reason);
        }
    }

    /** For each killed holder: how long until anyone was granted, against the lease plus the margin. */
    private void deathToGrant() {
        long lease = settings.lease().toNanos();
        for (Event kill : run.controller) {
            if (!kill.kind().equals("KILL")
                    || kill.fields().isEmpty()
                    || run.openGrant(kill.field(0), kill.nanos()) == null) {
                continue;
            }
            long k = kill.nanos();
            long waiterFrom = Long.MAX_VALUE;
            for (Wait w : run.waits) {
                if (!w.worker().equals(kill.field(0)) && w.until() > k) {
                    waiterFrom = Math.min(waiterFrom, Math.max(k, w.attempt().nanos()));
                }
            }
            if (waiterFrom == Long.MAX_VALUE) {
                continue; // nobody wanted the lock
            }
            long deadline = Math.max(k + lease, waiterFrom) + settings.margin().toNanos();
            Grant next =
                    run.grants.stream().filter(g -> g.start() > k).findFirst().orElse(null);
            long granted = next != null ? next.start() : run.stopAt;
            if (next == null && granted <= deadline) {
                continue; // the run stopped before the lock was owed to anyone
            }
            findings.deathToGrant(granted - k);
            if (granted > deadline) {
                findings.add(
                        Kind.SLOW_DEATH_TO_GRANT,
                        kill.line() + " then " + (next != null ? next.grant.line() : "no grant before the stop") + ": "
                                + (granted - k) / 1_000_000 + " ms",
                        null);
            }
        }
    }

    private void waitErrors() {
        for (Wait w : run.waits) {
            Event error = w.answer();
            if (error == null || !error.kind().equals("ERROR") || error.nanos() >= run.stopAt || endedByStop(w)) {
                continue;
            }
            long tail = settings.recovery().toNanos();
            Window outage = run.windows.stream()
                    .filter(o -> CheckerRun.OUTAGES.contains(o.kind())
                            && o.strikes(w.worker())
                            && o.meets(w.attempt().nanos(), error.nanos(), tail))
                    .findFirst()
                    .orElse(null);
            if (outage != null) {
                findings.waitErrorInOutage();
            }
            // docs/semantics.md, "Waiting": a waiter that cannot reach its backend keeps trying until
            // its wait runs out, then throws LockBackendException
            findings.add(
                    Kind.WAIT_ERROR,
                    error.line()
                            + (outage == null ? "" : " during " + outage.begin().line()),
                    outage == null ? null : "the backend could not be reached, docs/semantics.md#waiting");
        }
    }

    /** @return whether the worker's next line after the error is its normal stop: the stop interrupted the wait */
    private boolean endedByStop(Wait w) {
        for (Event e : run.workers.get(w.worker())) {
            if (e.nanos() > w.answer().nanos() || (e.nanos() == w.answer().nanos() && e != w.answer())) {
                if (e.kind().equals("ATTEMPT")) {
                    return false;
                }
                if (e.kind().equals("STOP")) {
                    return true;
                }
            }
        }
        return false;
    }

    private void exits() {
        Set<Event> killsUsed = new HashSet<>();
        for (Event e : run.controller) {
            if (e.kind().equals("HUNG")) {
                findings.add(Kind.HUNG, e.line(), null); // the controller then kills it: its exit is no crash
            }
            if (!e.kind().equals("EXIT") || e.fields().size() < 2) {
                continue;
            }
            Long code = CheckerRun.token(e, 1);
            if (code != null && settings.normalExits().contains(code.intValue())) {
                continue;
            }
            Event kill = run.controller.stream()
                    .filter(k -> (k.kind().equals("KILL") || k.kind().equals("HUNG"))
                            && k.nanos() <= e.nanos()
                            && !k.fields().isEmpty()
                            && k.field(0).equals(e.field(0))
                            && !killsUsed.contains(k))
                    .findFirst()
                    .orElse(null);
            if (kill != null) {
                killsUsed.add(kill);
            } else {
                findings.add(Kind.CRASHED, e.line(), null);
            }
        }
    }

    /** After each real release: was a waiter that was already waiting granted, or anyone, within the promise? */
    private void lostNotifications() {
        long promise = settings.wakeUp().toNanos();
        for (Grant g : run.grants) {
            if (g.released == null || g.lost != null || g.firstNotHeld != null) {
                continue; // a grant that was lost releases nothing
            }
            long r = g.released.nanos();
            if (r + promise >= run.stopAt || disturbed(r, r + promise)) {
                continue;
            }
            Wait waiter = run.waits.stream()
                    .filter(w -> !w.worker().equals(g.worker) && w.attempt().nanos() < r && w.until() > r + promise)
                    .findFirst()
                    .orElse(null);
            if (waiter == null) {
                continue;
            }
            Grant next =
                    run.grants.stream().filter(n -> n.start() >= r).findFirst().orElse(null);
            long waited = (next != null ? next.start() : run.stopAt) - r;
            if (waited > promise) {
                findings.wakeUp(waited);
                findings.add(
                        Kind.LOST_NOTIFICATION,
                        g.released.line() + " while waiting since "
                                + waiter.attempt().line() + ", next "
                                + (next != null ? next.grant.line() : "grant never came")
                                + ": " + waited / 1_000_000 + " ms",
                        null);
            }
        }
    }

    /** @return whether a nemesis (or a killed holder's lease) was at work at some time in [from, to] */
    private boolean disturbed(long from, long to) {
        long kill = settings.lease().plus(settings.margin()).toNanos();
        long tail = settings.recovery().toNanos();
        return run.windows.stream()
                .anyMatch(w -> !w.kind().equals("COMPACT")
                        && w.meets(from, to, w.kind().equals("KILL") ? kill : tail));
    }

    /**
     * @return the reason the docs admit {@code kind} between a grant before a nemesis (or while it
     *         lasted) and one after it began, or {@code null}
     */
    private String admitted(Kind kind, Grant earlier, Grant later) {
        long tail = settings.recovery().toNanos();
        for (Admission a : settings.admissions()) {
            if (!a.kinds().contains(kind)) {
                continue;
            }
            for (Window w : run.windows) {
                long end = w.end() == Long.MAX_VALUE ? w.end() : w.end() + tail;
                if (a.triggers().contains(w.kind()) && earlier.start() <= end && later.start() >= w.start()) {
                    return a.reason();
                }
            }
        }
        return null;
    }

    private static String held(Grant g) {
        return g.live() ? g.grant.line() + " … " + g.lastHeld.line() : g.grant.line();
    }
}
