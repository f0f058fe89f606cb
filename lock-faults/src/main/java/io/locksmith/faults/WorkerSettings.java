package io.locksmith.faults;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@link Worker} does, as its command line carries it:
 * {@code --id w1 --name LOCK --history FILE --ledger PORT --wait D --hold-min D --hold-max D
 * [--lease D] [--mode correct|no-lock|ignore-lease] [--primitive lock|semaphore:N|leader]}, durations as {@code 500ms}, {@code 3s} or
 * {@code 1m}. The backend's URI is not among them: it may carry credentials, so the worker reads it
 * from the environment variable {@value #URI_VARIABLE}.
 *
 * @param id         the worker's name in the histories: {@code w1}, {@code w2}, …
 * @param name       the lock name every worker of the run takes
 * @param history    the worker's history file
 * @param ledgerPort the fenced ledger's port on the loopback address
 * @param acquireWait how long one {@code acquire} waits
 * @param holdMin    the shortest hold
 * @param holdMax    the longest hold
 * @param lease      the client's lease (its locks', and ZooKeeper's session), if not the default
 * @param mode       correct, or one of the broken modes the checker must catch
 * @param primitive  what the workers take: the lock, one permit of a semaphore, or leadership
 */
public record WorkerSettings(
        String id,
        String name,
        Path history,
        int ledgerPort,
        Duration acquireWait,
        Duration holdMin,
        Duration holdMax,
        Optional<Duration> lease,
        Mode mode,
        Primitive primitive) {

    /** The environment variable that carries the backend's URI to a worker process. */
    public static final String URI_VARIABLE = "LOCKSMITH_URI";

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)");

    /**
     * What the workers of a run take.
     *
     * @param kind    the lock, a semaphore's permit, or a leader election's leadership
     * @param permits the semaphore's permits; 1 for the others
     */
    public record Primitive(Kind kind, int permits) {

        /** The kinds of primitive. */
        public enum Kind {
            /** {@code locks.lock(name)}: at most one holder, writes fenced by its token. */
            LOCK,
            /** {@code locks.semaphore(name, permits)}: at most {@code permits} holders; no ledger writes. */
            SEMAPHORE,
            /** {@code locks.leaderElection(name, id)}: at most one leader, writes fenced by its term. */
            LEADER
        }

        /** The lock. */
        public static final Primitive LOCK = new Primitive(Kind.LOCK, 1);

        /** Leadership. */
        public static final Primitive LEADER = new Primitive(Kind.LEADER, 1);

        /** Checks the permits. */
        public Primitive {
            Objects.requireNonNull(kind, "kind");
            if (permits < 1 || (kind != Kind.SEMAPHORE && permits != 1)) {
                throw new IllegalArgumentException(
                        "a " + kind + " has 1 permit; a semaphore at least 1, was " + permits);
            }
        }

        /**
         * @param permits how many
         * @return one permit of a semaphore of that many
         */
        public static Primitive semaphore(int permits) {
            return new Primitive(Kind.SEMAPHORE, permits);
        }

        /** @return how the command line spells it: {@code lock}, {@code semaphore:N}, {@code leader} */
        public String flag() {
            return switch (kind) {
                case LOCK -> "lock";
                case SEMAPHORE -> "semaphore:" + permits;
                case LEADER -> "leader";
            };
        }

        static Primitive ofFlag(String flag) {
            if (flag.equals("lock")) {
                return LOCK;
            }
            if (flag.equals("leader")) {
                return LEADER;
            }
            if (flag.matches("semaphore:[1-9][0-9]{0,3}")) {
                return semaphore(Integer.parseInt(flag.substring("semaphore:".length())));
            }
            throw new IllegalArgumentException("--primitive must be lock, semaphore:N or leader, was '" + flag + "'");
        }
    }

    /** How a worker treats its lock. */
    public enum Mode {
        /** As the docs ask: acquire, check {@code isHeld()}, write with the token, release. */
        CORRECT,
        /** Broken on purpose: takes no lock, logs a made-up increasing token as its grant. */
        NO_LOCK,
        /**
         * Broken on purpose: acquires without renewal and goes on as the holder until it chooses to
         * release, logging {@code HELD true} without asking the handle.
         */
        IGNORE_LEASE;

        /** @return the mode as the command line spells it: {@code correct}, {@code no-lock}, {@code ignore-lease} */
        public String flag() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static Mode ofFlag(String flag) {
            for (Mode m : values()) {
                if (m.flag().equals(flag)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("--mode must be correct, no-lock or ignore-lease, was '" + flag + "'");
        }
    }

    /** Checks the settings; see the record's description. */
    public WorkerSettings {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(acquireWait, "acquireWait");
        Objects.requireNonNull(holdMin, "holdMin");
        Objects.requireNonNull(holdMax, "holdMax");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(primitive, "primitive");
        if (holdMax.compareTo(holdMin) < 0) {
            throw new IllegalArgumentException(
                    "--hold-max (" + holdMax + ") is shorter than --hold-min (" + holdMin + ")");
        }
    }

    /**
     * Reads a worker's command line.
     *
     * @param args the arguments of {@link Worker#main}
     * @return the settings
     * @throws IllegalArgumentException naming the argument that is missing or malformed
     */
    public static WorkerSettings parse(String[] args) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value pairs, got '" + args[i] + "'");
            }
            values.put(args[i].substring(2), args[i + 1]);
        }
        return new WorkerSettings(
                required(values, "id"),
                required(values, "name"),
                Path.of(required(values, "history")),
                Integer.parseInt(required(values, "ledger")),
                duration("wait", required(values, "wait")),
                duration("hold-min", required(values, "hold-min")),
                duration("hold-max", required(values, "hold-max")),
                Optional.ofNullable(values.get("lease")).map(v -> duration("lease", v)),
                Mode.ofFlag(values.getOrDefault("mode", "correct")),
                Primitive.ofFlag(values.getOrDefault("primitive", "lock")));
    }

    /** @return the command line {@link #parse} reads back into these settings */
    public List<String> toArgs() {
        List<String> args = new ArrayList<>(List.of(
                "--id",
                id,
                "--name",
                name,
                "--history",
                history.toString(),
                "--ledger",
                Integer.toString(ledgerPort),
                "--wait",
                format(acquireWait),
                "--hold-min",
                format(holdMin),
                "--hold-max",
                format(holdMax),
                "--mode",
                mode.flag(),
                "--primitive",
                primitive.flag()));
        lease.ifPresent(l -> args.addAll(List.of("--lease", format(l))));
        return args;
    }

    /**
     * @param newId another worker's id
     * @param newHistory its history file
     * @return these settings for another worker of the same run
     */
    public WorkerSettings forWorker(String newId, Path newHistory) {
        return new WorkerSettings(
                newId, name, newHistory, ledgerPort, acquireWait, holdMin, holdMax, lease, mode, primitive);
    }

    private static String required(Map<String, String> values, String option) {
        String v = values.get(option);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + option);
        }
        return v;
    }

    static Duration duration(String option, String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "--" + option + " must be a duration such as 500ms, 3s or 1m, was '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            default -> Duration.ofMinutes(n);
        };
    }

    private static String format(Duration d) {
        return d.toMillis() + "ms";
    }
}
