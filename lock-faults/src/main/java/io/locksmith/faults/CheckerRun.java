package io.locksmith.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One run's history read as the {@link Checker} needs it: every grant with what its worker logged
 * about it, every wait, the ledger's answers, and the windows in which a nemesis was at work.
 *
 * <p>Times are the lines' {@link System#nanoTime()} readings, the same clock in every process of
 * the machine. A worker's acquisition returned before its {@code GRANT} line was timed, and each
 * {@code HELD} sample was timed before {@code isHeld()} was called; so a grant with a
 * {@code HELD true} sample at or after its {@code GRANT} line was believed held by its worker
 * throughout {@code [GRANT, last HELD true]} — its <em>known-held interval</em>.
 */
final class CheckerRun {

    /** One grant and what its worker logged about it until it ended. */
    static final class Grant {
        final String worker;
        final long token;
        final Event grant;
        /** When the wait that ended in this grant began; {@link Long#MIN_VALUE} if not logged. */
        final long attempt;

        Event lastHeld;
        Event firstNotHeld;
        Event lost;
        Event released;

        Grant(String worker, long token, Event grant, long attempt) {
            this.worker = worker;
            this.token = token;
            this.grant = grant;
            this.attempt = attempt;
        }

        long start() {
            return grant.nanos();
        }

        /** @return whether the grant has a known-held interval: a {@code HELD true} at or after its {@code GRANT} */
        boolean live() {
            return lastHeld != null;
        }

        /** @return the end of the known-held interval; only for a {@link #live()} grant */
        long end() {
            return lastHeld.nanos();
        }

        /** @return whether the worker still had the grant open (not released, not told it was lost) at {@code t} */
        boolean openAt(long t) {
            return start() <= t && (released == null || released.nanos() > t) && (lost == null || lost.nanos() > t);
        }
    }

    /** One wait, from {@code ATTEMPT} to its answer ({@code GRANT}, {@code TIMEOUT}, {@code ERROR}). */
    record Wait(String worker, Event attempt, Event answer, long until) {}

    /**
     * A nemesis at work, from the controller's line that began it to the one that ended it
     * ({@link Long#MAX_VALUE} if none did); a kill and a compaction end where they begin.
     *
     * @param kind   the controller's kind that began it, such as {@code SERVER_KILL}
     * @param worker whom it struck, or {@code null} for the server (every worker)
     */
    record Window(String kind, String worker, long start, long end, Event begin) {

        boolean strikes(String w) {
            return worker == null || worker.equals(w);
        }

        /** @return whether [from, to] meets this window stretched by {@code tail} */
        boolean meets(long from, long to, long tail) {
            long stretched = end == Long.MAX_VALUE ? end : end + tail;
            return from <= stretched && to >= start;
        }
    }

    /** The nemeses that keep a worker from its server: a wait may end in an error while one lasts. */
    static final Set<String> OUTAGES =
            Set.of("SERVER_KILL", "SERVER_PAUSE", "LEADER_KILL", "FAILOVER", "CUT", "PAUSE", "MIGRATE");

    /**
     * The line that ends each lasting nemesis: SERVER_UP once the killed server, leader or master is
     * back; MIGRATED once a moving Cluster slot has its new owner (a wait may meet TRYAGAIN until then).
     */
    private static final Map<String, String> ENDS = Map.of(
            "SERVER_KILL",
            "SERVER_UP",
            "LEADER_KILL",
            "SERVER_UP",
            "FAILOVER",
            "SERVER_UP",
            "SERVER_PAUSE",
            "SERVER_RESUME",
            "CUT",
            "RESTORE",
            "PAUSE",
            "RESUME",
            "MIGRATE",
            "MIGRATED");

    private static final Set<String> INSTANT = Set.of("KILL", "COMPACT");
    private static final Set<String> AIMED = Set.of("CUT", "RESTORE", "PAUSE", "RESUME", "KILL");

    final List<Grant> grants = new ArrayList<>();
    final Map<String, List<Grant>> grantsOf = new LinkedHashMap<>();
    final List<Wait> waits = new ArrayList<>();
    final List<Event> ledger;
    final List<Event> controller;
    final List<Window> windows = new ArrayList<>();
    final Map<String, List<Event>> workers = new LinkedHashMap<>();
    /** When the workers began to stop (the first STOP, STOPPING, HUNG or END line): no grant is owed after it. */
    final long stopAt;

    CheckerRun(History history) {
        ledger = history.of(Event.LEDGER);
        controller = history.of(Event.CONTROLLER);
        for (Event e : history.events()) {
            if (!e.source().equals(Event.LEDGER) && !e.source().equals(Event.CONTROLLER)) {
                workers.computeIfAbsent(e.source(), w -> new ArrayList<>()).add(e);
            }
        }
        readWindows();
        workers.forEach(this::readWorker);
        grants.sort(Comparator.comparingLong(Grant::start));
        stopAt = stopTime(history);
    }

    private void readWorker(String worker, List<Event> events) {
        Event attempt = null;
        Grant current = null;
        for (Event e : events) {
            switch (e.kind()) {
                case "START" -> {
                    closeWait(worker, attempt, null);
                    attempt = null;
                    current = null;
                }
                case "ATTEMPT" -> {
                    closeWait(worker, attempt, null);
                    attempt = e;
                }
                case "GRANT" -> {
                    Long token = token(e, 0);
                    if (token == null) {
                        continue;
                    }
                    current = new Grant(worker, token, e, attempt == null ? Long.MIN_VALUE : attempt.nanos());
                    grants.add(current);
                    grantsOf.computeIfAbsent(worker, w -> new ArrayList<>()).add(current);
                    closeWait(worker, attempt, e);
                    attempt = null;
                }
                case "TIMEOUT", "ERROR" -> {
                    closeWait(worker, attempt, e);
                    attempt = null;
                }
                case "HELD" -> {
                    if (current != null
                            && current.released == null
                            && !e.fields().isEmpty()) {
                        if ("true".equals(e.field(0)) && e.nanos() >= current.start()) {
                            current.lastHeld = e;
                        } else if ("false".equals(e.field(0)) && current.firstNotHeld == null) {
                            current.firstNotHeld = e;
                        }
                    }
                }
                case "LOST" -> {
                    if (current != null && current.lost == null) {
                        current.lost = e;
                    }
                }
                case "RELEASED" -> {
                    if (current != null && current.released == null) {
                        current.released = e;
                    }
                }
                default -> {
                    // WRITE, ACCEPTED, REJECTED, RELEASE, STOP: the ledger's own lines and the
                    // grant's end say what the checker needs
                }
            }
        }
        closeWait(worker, attempt, null);
    }

    private void closeWait(String worker, Event attempt, Event answer) {
        if (attempt == null) {
            return;
        }
        long until = answer != null ? answer.nanos() : killAfter(worker, attempt.nanos());
        waits.add(new Wait(worker, attempt, answer, until));
    }

    /** @return when the controller killed {@code worker} after {@code t}, or never */
    private long killAfter(String worker, long t) {
        return controller.stream()
                .filter(c -> c.kind().equals("KILL")
                        && c.nanos() >= t
                        && !c.fields().isEmpty()
                        && c.field(0).equals(worker))
                .mapToLong(Event::nanos)
                .findFirst()
                .orElse(Long.MAX_VALUE);
    }

    private void readWindows() {
        Map<String, Window> open = new HashMap<>();
        for (Event c : controller) {
            String kind = c.kind();
            String worker = AIMED.contains(kind) && !c.fields().isEmpty() ? c.field(0) : null;
            if (ENDS.containsKey(kind)) {
                open.putIfAbsent(kind + " " + worker, new Window(kind, worker, c.nanos(), Long.MAX_VALUE, c));
            } else if (INSTANT.contains(kind)) {
                windows.add(new Window(kind, worker, c.nanos(), c.nanos(), c));
            } else {
                ENDS.forEach((begin, end) -> {
                    if (end.equals(kind)) {
                        Window w = open.remove(begin + " " + worker);
                        if (w != null) {
                            windows.add(new Window(w.kind(), worker, w.start(), c.nanos(), w.begin()));
                        }
                    }
                });
            }
        }
        windows.addAll(open.values());
        windows.sort(Comparator.comparingLong(Window::start));
    }

    private static long stopTime(History history) {
        long stop = Long.MAX_VALUE;
        for (Event e : history.events()) {
            // not EXIT: a killed worker's exit comes in the middle of the run. STOPPING dates the
            // stop exactly; HUNG and END are there for histories without it
            boolean stopping = e.source().equals(Event.CONTROLLER)
                    ? Set.of("STOPPING", "HUNG", "END").contains(e.kind())
                    : !e.source().equals(Event.LEDGER) && e.kind().equals("STOP");
            if (stopping) {
                stop = Math.min(stop, e.nanos());
            }
        }
        if (stop == Long.MAX_VALUE && !history.events().isEmpty()) {
            stop = history.events().get(history.events().size() - 1).nanos();
        }
        return stop;
    }

    /** @return the grant that {@code worker}'s write of {@code token}, answered at {@code t}, came from */
    Grant grantOf(String worker, long token, long t) {
        Grant found = null;
        for (Grant g : grantsOf.getOrDefault(worker, List.of())) {
            if (g.token == token && g.start() <= t) {
                found = g;
            }
        }
        return found;
    }

    /** @return the grant {@code worker} had open at {@code t}, if any */
    Grant openGrant(String worker, long t) {
        Grant found = null;
        for (Grant g : grantsOf.getOrDefault(worker, List.of())) {
            if (g.start() <= t) {
                found = g;
            }
        }
        return found != null && found.openAt(t) ? found : null;
    }

    /**
     * Whether {@code later} was granted on the server after {@code earlier}, as far as a correct
     * backend lets the log prove it: {@code later}'s wait began after {@code earlier}'s grant was
     * logged, or, for a lock ({@code permits} 1), {@code later} was logged later and then believed
     * held (had a correct backend granted it first, it would have had to lose it before
     * {@code earlier}'s grant, so before its own {@code GRANT} line and every sample after). With
     * more than one permit, being believed held proves nothing about order: two permits are held
     * together, and the one granted first can be answered second.
     */
    static boolean knownAfter(Grant earlier, Grant later, int permits) {
        return earlier.start() < later.start() && ((permits == 1 && later.live()) || later.attempt > earlier.start());
    }

    static Long token(Event e, int field) {
        if (e.fields().size() <= field) {
            return null;
        }
        try {
            return Long.parseLong(e.field(field));
        } catch (NumberFormatException ex) {
            return null;
        }
    }
}
