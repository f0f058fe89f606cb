package io.locksmith.bench;

import io.locksmith.testing.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * Runs every scenario on every backend asked for, starting the servers through lock-testing,
 * and writes a Markdown table and a JSON file. Run it with {@code scripts/bench.sh}.
 */
public final class Bench {

    private static final Map<String, Supplier<BackendBench>> BACKENDS = new LinkedHashMap<>();

    static {
        BACKENDS.put("memory", MemoryBench::new);
        BACKENDS.put("redis", () -> new RedisBench(TestServers.redis()));
        BACKENDS.put("postgresql", () -> new PostgresBench(TestServers.postgres()));
        BACKENDS.put("etcd", () -> new EtcdBench(TestServers.etcd()));
        BACKENDS.put("zookeeper", () -> new ZooKeeperBench(TestServers.zookeeper()));
        BACKENDS.put("azure-blob", () -> new AzureBlobBench(TestServers.azurite()));
    }

    /** Issue 20's contended scenario: this many clients, each standing for a process, on one name. */
    private static final int CONTENDERS = 8;

    private static final String CONTENDED_FLOOR = "contended floor: 8 connections polling every 100 µs";
    private static final String CONTENDED = "contended: 8 clients, 1 name";
    private static final String CONTENDED_MUTEX = "contended: Curator InterProcessMutex, 8 clients, 1 name";
    private static final String CONTENDED_ADVISORY_FLOOR =
            "contended advisory floor: 8 connections polling every 100 µs";
    private static final String CONTENDED_SESSION = "contended: 8 clients, 1 name, session mode";

    private static final String TO_CONTENDED_FLOOR = "latency = wait; ratio to the contended floor";

    private static final String USAGE = "usage: [--backends "
            + String.join(",", BACKENDS.keySet())
            + "] [--only contended|uncontended] [--seconds N] [--warmup N] [--held N] [--hold-seconds N]"
            + " [--failover-rounds N] [--out DIR]; --only contended runs only the contended"
            + " rows (the polling floor, the library with 8 clients on one name, and on ZooKeeper"
            + " Curator's InterProcessMutex the same way, on PostgreSQL the advisory polling floor and"
            + " session mode); --only uncontended runs only the round trip,"
            + " the floors and the uncontended pairs (on PostgreSQL also session mode against the"
            + " advisory floor); --help prints this";

    private static int heldLocks;
    private static Duration heldFor;
    private static int failoverRounds;

    private Bench() {}

    /**
     * @param args {@code [--backends a,b] [--only contended] [--seconds N] [--warmup N] [--held N]
     *     [--hold-seconds N] [--failover-rounds N] [--out DIR]}; {@code --only contended} runs only
     *     the contended rows of issue 20 (8 clients on one name against the polling floor)
     * @throws Exception if a scenario fails
     */
    public static void main(String[] args) throws Exception {
        List<String> backends = new ArrayList<>(BACKENDS.keySet());
        int seconds = 5;
        int warmup = 5;
        int held = 10_000;
        int holdSeconds = 60;
        int rounds = 3;
        Path out = Path.of("target/bench");
        boolean onlyContended = false;
        boolean onlyUncontended = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--backends" -> backends = List.of(args[++i].split(","));
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--held" -> held = Integer.parseInt(args[++i]);
                case "--hold-seconds" -> holdSeconds = Integer.parseInt(args[++i]);
                case "--failover-rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--help" -> {
                    System.out.println(USAGE);
                    return;
                }
                case "--only" -> {
                    String only = args[++i];
                    if (only.equals("contended")) {
                        onlyContended = true;
                    } else if (only.equals("uncontended")) {
                        onlyUncontended = true;
                    } else {
                        throw new IllegalArgumentException("unknown scenario group " + only + " for --only; " + USAGE);
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; " + USAGE);
            }
        }
        Scenarios scenarios = new Scenarios(Duration.ofSeconds(warmup), Duration.ofSeconds(seconds));
        heldLocks = held;
        heldFor = Duration.ofSeconds(holdSeconds);
        failoverRounds = rounds;
        List<Result> results = new ArrayList<>();
        List<String> versions = new ArrayList<>();
        for (String name : backends) {
            Supplier<BackendBench> factory = BACKENDS.get(name);
            if (factory == null) {
                throw new IllegalArgumentException("unknown backend " + name + "; known: " + BACKENDS.keySet());
            }
            progress(name, "starting");
            try (BackendBench bench = factory.get()) {
                versions.add(bench.name() + ": " + bench.version());
                if (onlyContended) {
                    results.addAll(contention(bench, scenarios));
                } else if (onlyUncontended) {
                    results.addAll(uncontended(bench, scenarios));
                } else {
                    results.addAll(run(bench, scenarios));
                }
            }
        }
        String table = report(results, versions, String.join(" ", args));
        System.out.println(table);
        Files.createDirectories(out);
        Files.writeString(out.resolve("benchmarks.md"), table);
        Files.writeString(out.resolve("benchmarks.json"), json(results, versions));
    }

    /** The round trip, the floor and the uncontended pair (and PostgreSQL's session mode rows) alone. */
    private static List<Result> uncontended(BackendBench bench, Scenarios s) {
        List<Result> rows = new ArrayList<>();
        String b = bench.name();
        if (bench.roundTrip() != null) {
            progress(b, "round trip (ping)");
            Histogram ping = s.roundTrip(bench.roundTrip());
            rows.add(row(b, "round trip (ping)", ping, Double.NaN, ""));
        }
        progress(b, "floor: client library pair");
        Histogram floor = s.floor(bench);
        rows.add(row(b, "floor: client library pair", floor, Double.NaN, ""));
        progress(b, "uncontended pair");
        Histogram un = s.uncontended(bench);
        rows.add(row(b, "uncontended pair", un, Scenarios.perSecond(un) / Scenarios.perSecond(floor), "1 thread"));
        if (bench instanceof PostgresBench pg) {
            rows.addAll(sessionMode(pg, s, Scenarios.perSecond(un)));
        }
        return rows;
    }

    /**
     * PostgreSQL's session mode against the advisory floor (try-lock and unlock on one
     * connection), issue 20's target, with the row mode's pair against the same floor beside it.
     */
    private static List<Result> sessionMode(PostgresBench pg, Scenarios s, double rowPairRate) {
        List<Result> rows = new ArrayList<>();
        String b = pg.name();
        progress(b, "floor: advisory lock pair");
        Histogram advisory = s.floor(pg.advisoryFloor());
        double advisoryRate = Scenarios.perSecond(advisory);
        rows.add(
                row(b, "floor: advisory lock pair", advisory, Double.NaN, "pg_try_advisory_lock + pg_advisory_unlock"));
        progress(b, "uncontended pair, session mode");
        Histogram session = s.uncontended(pg.sessionClient());
        rows.add(row(
                b,
                "uncontended pair, session mode",
                session,
                Scenarios.perSecond(session) / advisoryRate,
                String.format(
                        Locale.ROOT,
                        "1 thread; ratio to the advisory floor (row mode's pair: %.2f of it)",
                        rowPairRate / advisoryRate)));
        progress(b, "uncontended pair, session mode, acquire with a wait");
        Histogram waiting = s.uncontendedWaiting(pg.sessionClient());
        rows.add(row(
                b,
                "uncontended pair, session mode, acquire with a wait",
                waiting,
                Scenarios.perSecond(waiting) / advisoryRate,
                "1 thread, acquire(5 s) of a free lock; ratio to the advisory floor"));
        return rows;
    }

    private static List<Result> run(BackendBench bench, Scenarios s) throws InterruptedException {
        List<Result> rows = new ArrayList<>();
        String b = bench.name();
        double rtt = -1;
        if (bench.roundTrip() != null) {
            progress(b, "round trip (ping)");
            Histogram ping = s.roundTrip(bench.roundTrip());
            rtt = micros(ping.getValueAtPercentile(50));
            rows.add(new Result(
                    b,
                    "round trip (ping)",
                    Scenarios.perSecond(ping),
                    rtt,
                    micros(ping.getValueAtPercentile(99)),
                    Double.NaN,
                    ""));
        }
        progress(b, "floor: client library pair");
        Histogram floor = s.floor(bench);
        double floorRate = Scenarios.perSecond(floor);
        rows.add(row(b, "floor: client library pair", floor, Double.NaN, ""));
        progress(b, "uncontended pair");
        Histogram un = s.uncontended(bench);
        rows.add(row(b, "uncontended pair", un, Scenarios.perSecond(un) / floorRate, "1 thread"));
        if (bench instanceof PostgresBench pg) {
            rows.addAll(sessionMode(pg, s, Scenarios.perSecond(un)));
        }
        sharedPairs(bench, s, rows, Scenarios.perSecond(un), floorRate);
        if (bench instanceof MemoryBench) {
            // the listener hook's cost, where it is largest relative to the pair: a listener that
            // hears every event, against the pair without one, alternated and best of two each
            progress(b, "uncontended pair, a listener registered");
            Histogram heard = s.uncontendedHeard(bench);
            Histogram again = s.uncontended(bench);
            Histogram heardAgain = s.uncontendedHeard(bench);
            double without = Math.max(Scenarios.perSecond(un), Scenarios.perSecond(again));
            Histogram best = Scenarios.perSecond(heard) >= Scenarios.perSecond(heardAgain) ? heard : heardAgain;
            rows.add(row(
                    b,
                    "uncontended pair, a listener registered",
                    best,
                    Scenarios.perSecond(best) / floorRate,
                    String.format(
                            Locale.ROOT,
                            "1 thread; %.3f of the pair without a listener (best of two runs each)",
                            Scenarios.perSecond(best) / without)));
        }
        if (bench instanceof ZooKeeperBench zk) {
            progress(b, "Curator InterProcessMutex pair");
            Histogram mutex = zk.interProcessMutex(s);
            rows.add(row(
                    b, "Curator InterProcessMutex pair", mutex, Scenarios.perSecond(mutex) / floorRate, "1 thread"));
        }
        progress(b, "contended: 8 threads, 2 clients, 1 name");
        Scenarios.Contended c = s.contended(bench, 8, 1);
        String handoff = String.format(
                Locale.ROOT,
                "handoff p50 %.1f µs, p99 %.1f µs",
                (double) c.handoffMicros().getValueAtPercentile(50),
                (double) c.handoffMicros().getValueAtPercentile(99));
        if (rtt > 0) {
            handoff += String.format(
                    Locale.ROOT, " (%.1f round trips)", c.handoffMicros().getValueAtPercentile(50) / rtt);
        }
        rows.add(new Result(
                b,
                "contended: 8 threads, 2 clients, 1 name",
                c.grantsPerSecond(),
                c.waitMicros().getValueAtPercentile(50),
                c.waitMicros().getValueAtPercentile(99),
                Double.NaN,
                "latency = wait; " + handoff));
        progress(b, "spread: 8 threads, 2 clients, 1,000 names");
        Scenarios.Contended spread = s.contended(bench, 8, 1000);
        rows.add(new Result(
                b,
                "spread: 8 threads, 2 clients, 1,000 names",
                spread.grantsPerSecond(),
                spread.waitMicros().getValueAtPercentile(50),
                spread.waitMicros().getValueAtPercentile(99),
                Double.NaN,
                "latency = acquire"));
        rows.addAll(contention(bench, s));
        if (bench.failoverUri() != null && failoverRounds > 0) {
            progress(b, "leader failover");
            LeaderFailover.Outcome o = LeaderFailover.run(bench.failoverUri(), bench.failoverLease(), failoverRounds);
            long leaseMillis = o.lease().toMillis();
            rows.add(new Result(
                    b,
                    "leader failover: the leader's client crashes",
                    -1,
                    -1,
                    -1,
                    Double.NaN,
                    String.format(
                            Locale.ROOT,
                            "%d rounds, lease %d ms: median %.0f ms = %.2f leases, slowest %.0f ms = %.2f leases",
                            o.failoverMillis().size(),
                            leaseMillis,
                            o.medianMillis(),
                            o.medianMillis() / leaseMillis,
                            o.maxMillis(),
                            o.maxMillis() / leaseMillis)));
        }
        if (bench.uri() != null && heldLocks > 0) {
            progress(
                    b, String.format(Locale.ROOT, "held at scale: %,d locks for %d s", heldLocks, heldFor.toSeconds()));
            HeldAtScale.Outcome o = HeldAtScale.run(bench.uri(), heldLocks, heldFor, Duration.ofSeconds(15));
            rows.add(new Result(
                    b,
                    String.format(Locale.ROOT, "held at scale: %,d locks for %d s", o.locks(), heldFor.toSeconds()),
                    -1,
                    -1,
                    -1,
                    Double.NaN,
                    String.format(
                            Locale.ROOT,
                            "%.1f renewal calls per tick; client CPU %.1f%% of a core; %.0f bytes of client heap per lock; %d lost",
                            o.callsPerTick(),
                            o.cpuPercent(),
                            o.heapBytesPerLock(),
                            o.lost())));
        }
        return rows;
    }

    /**
     * Issue 20's contended rows: the polling floor (the backend's own client, each of 8 threads on
     * a connection of its own), the library (each of 8 threads on a client of its own) as a ratio
     * to it, and on ZooKeeper Curator's {@code InterProcessMutex} contended the same way.
     */
    private static List<Result> contention(BackendBench bench, Scenarios s) throws InterruptedException {
        List<Result> rows = new ArrayList<>();
        String b = bench.name();
        progress(b, CONTENDED_FLOOR);
        Contention.Outcome floor = s.contention(Contention.open(
                CONTENDERS, () -> Contention.polling(bench.floorConnection(), "bench-contended-floor")));
        rows.add(contentionRow(b, CONTENDED_FLOOR, floor, Double.NaN, "latency = wait"));
        progress(b, CONTENDED);
        Contention.Outcome library = s.contention(Contention.open(
                CONTENDERS, () -> Contention.library(bench.processClient(), "bench-contended-clients")));
        rows.add(contentionRow(
                b, CONTENDED, library, library.grantsPerSecond() / floor.grantsPerSecond(), TO_CONTENDED_FLOOR));
        if (bench instanceof ZooKeeperBench zk) {
            progress(b, CONTENDED_MUTEX);
            Contention.Outcome mutex = s.contention(Contention.open(
                    CONTENDERS, () -> zk.interProcessMutexContender("/bench-contended-interprocess-mutex")));
            rows.add(contentionRow(
                    b, CONTENDED_MUTEX, mutex, mutex.grantsPerSecond() / floor.grantsPerSecond(), TO_CONTENDED_FLOOR));
        }
        if (bench instanceof PostgresBench pg) {
            progress(b, CONTENDED_ADVISORY_FLOOR);
            Contention.Outcome advisory = s.contention(Contention.open(
                    CONTENDERS, () -> Contention.polling(pg.advisoryFloorConnection(), "bench-contended-advisory")));
            rows.add(contentionRow(
                    b, CONTENDED_ADVISORY_FLOOR, advisory, Double.NaN, "latency = wait; pg_try_advisory_lock polling"));
            progress(b, CONTENDED_SESSION);
            Contention.Outcome session = s.contention(Contention.open(
                    CONTENDERS, () -> Contention.library(pg.sessionClient(), "bench-contended-session")));
            rows.add(contentionRow(
                    b,
                    CONTENDED_SESSION,
                    session,
                    session.grantsPerSecond() / advisory.grantsPerSecond(),
                    "latency = wait; ratio to the contended advisory floor"));
        }
        return rows;
    }

    private static Result contentionRow(
            String backend, String scenario, Contention.Outcome o, double ratio, String note) {
        return new Result(
                backend,
                scenario,
                o.grantsPerSecond(),
                micros(o.waitNanos().getValueAtPercentile(50)),
                micros(o.waitNanos().getValueAtPercentile(99)),
                ratio,
                note,
                o.figures());
    }

    /**
     * The semaphore's and the read-write lock's uncontended pairs, each against the floor; the note
     * gives each as a fraction of the lock's own pair. A backend that keeps no such kind gets a row
     * that says so.
     */
    private static void sharedPairs(
            BackendBench bench, Scenarios s, List<Result> rows, double lockPairRate, double floorRate) {
        String b = bench.name();
        record Pair(String scenario, Supplier<Histogram> run) {}
        List<Pair> pairs = List.of(
                new Pair("uncontended semaphore pair (3 permits)", () -> s.uncontendedPermit(bench)),
                new Pair("uncontended read lock pair", () -> s.uncontendedReadWrite(bench, false)),
                new Pair("uncontended write lock pair", () -> s.uncontendedReadWrite(bench, true)));
        for (Pair pair : pairs) {
            progress(b, pair.scenario());
            Histogram h;
            try {
                h = pair.run().get();
            } catch (UnsupportedOperationException e) {
                rows.add(new Result(b, pair.scenario(), -1, -1, -1, Double.NaN, "not kept: " + e.getMessage()));
                continue;
            }
            rows.add(row(
                    b,
                    pair.scenario(),
                    h,
                    Scenarios.perSecond(h) / floorRate,
                    String.format(
                            Locale.ROOT,
                            "1 thread; %.2f of the lock's uncontended pair",
                            Scenarios.perSecond(h) / lockPairRate)));
        }
    }

    /** A line on standard error as each scenario starts: a full run takes minutes. */
    private static void progress(String backend, String scenario) {
        System.err.println("bench: " + backend + ": " + scenario);
    }

    private static Result row(String backend, String scenario, Histogram nanos, double ratio, String note) {
        return new Result(
                backend,
                scenario,
                Scenarios.perSecond(nanos),
                micros(nanos.getValueAtPercentile(50)),
                micros(nanos.getValueAtPercentile(99)),
                ratio,
                note);
    }

    private static double micros(double nanos) {
        return nanos / 1000.0;
    }

    private static String report(List<Result> results, List<String> versions, String args) {
        StringBuilder md = new StringBuilder();
        md.append("Run ")
                .append(Instant.now())
                .append(" on ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, Java ")
                .append(Runtime.version())
                .append("; ")
                .append(String.join("; ", versions))
                .append("; arguments: ")
                .append(args.isEmpty() ? "(defaults)" : args)
                .append("\n\n");
        md.append("| backend | scenario | per second | p50 | p99 | ratio to floor | notes |\n");
        md.append("|---|---|---|---|---|---|---|\n");
        results.forEach(r -> md.append(r.markdownRow()).append('\n'));
        return md.toString();
    }

    private static String json(List<Result> results, List<String> versions) {
        return "{\"cores\":" + Runtime.getRuntime().availableProcessors() + ",\"java\":\"" + Runtime.version()
                + "\",\"servers\":["
                + versions.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(","))
                + "],\"results\":[\n" + results.stream().map(Result::json).collect(Collectors.joining(",\n"))
                + "\n]}\n";
    }
}
