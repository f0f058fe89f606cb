package io.locksmith.faults;

import io.locksmith.testing.TcpProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * The controller of one run: one backend × one nemesis for a given length. It starts the
 * {@link Ledger} and the workers (processes, or threads for memory), waits until each has opened
 * its client (its first {@code ATTEMPT}), runs the nemesis, logs {@code STOPPING} and stops the
 * workers (SIGTERM; {@code HUNG w} and {@code kill -9} after {@value #STOP_BOUND_SECONDS} s),
 * logs {@code EXIT w code} for each and {@code END}, and
 * reads the run's {@link History} back.
 *
 * <pre>{@code
 * FaultRun.Result r = FaultRun.run(FaultRun.Plan.of(Target.open("redis", dir), Nemesis.KILL, Duration.ofSeconds(20)), dir);
 * }</pre>
 */
final class FaultRun {

    private static final long STOP_BOUND_SECONDS = 30;
    /** Worker JVMs start in a second or two; on a busy machine with jetcd on the class path, longer. */
    private static final Duration START_BOUND = Duration.ofSeconds(90);

    /**
     * What to run.
     *
     * @param target  the backend
     * @param nemesis the fault
     * @param length  how long the nemesis runs, once every worker has opened its client
     * @param workers how many workers compete
     * @param mode    how the workers treat the lock: correct, or broken on purpose
     * @param holdMin the shortest hold
     * @param holdMax the longest hold
     * @param primitive what the workers take
     */
    record Plan(
            Target target,
            Nemesis nemesis,
            Duration length,
            int workers,
            WorkerSettings.Mode mode,
            Duration holdMin,
            Duration holdMax,
            WorkerSettings.Primitive primitive) {

        /**
         * Three correct workers holding for a fifteenth to a quarter of the lease.
         *
         * @param target  the backend
         * @param nemesis the fault
         * @param length  how long it runs
         * @return the plan
         */
        static Plan of(Target target, Nemesis nemesis, Duration length) {
            Duration lease = target.lease();
            return new Plan(
                    target,
                    nemesis,
                    length,
                    3,
                    WorkerSettings.Mode.CORRECT,
                    lease.dividedBy(15),
                    lease.dividedBy(4),
                    WorkerSettings.Primitive.LOCK);
        }

        /**
         * @param m     another mode
         * @param min   its shortest hold
         * @param max   its longest hold
         * @return this plan with broken workers
         */
        Plan with(WorkerSettings.Mode m, Duration min, Duration max) {
            return new Plan(target, nemesis, length, workers, m, min, max, primitive);
        }

        /**
         * @param p what the workers take instead
         * @return this plan for that primitive
         */
        Plan taking(WorkerSettings.Primitive p) {
            return new Plan(target, nemesis, length, workers, mode, holdMin, holdMax, p);
        }
    }

    /**
     * What a run left.
     *
     * @param plan    what was run
     * @param history every line every process of the run logged
     * @param dir     where the history files and the workers' output are
     */
    record Result(Plan plan, History history, Path dir) {}

    private FaultRun() {}

    /**
     * Runs a plan.
     *
     * @param plan what to run
     * @param dir  an empty directory for the run's files
     * @return the run's history
     * @throws InterruptedException if interrupted; the workers are stopped first
     */
    static Result run(Plan plan, Path dir) throws InterruptedException {
        clear(dir);
        String suffix = Long.toHexString(ThreadLocalRandom.current().nextLong());
        try (Ledger ledger = Ledger.start(dir.resolve("ledger.history"));
                EventLog log = new EventLog(dir.resolve("controller.history"), Event.CONTROLLER)) {
            Controller c = new Controller(plan, dir, ledger.port(), log, suffix);
            try {
                for (int i = 0; i < plan.workers(); i++) {
                    c.startWorker();
                }
                c.awaitReady();
                c.end = System.nanoTime() + plan.length().toNanos();
                new Nemeses(c).run(plan.nemesis());
            } finally {
                c.stopAll();
                log.write("END");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the ledger", e);
        }
        try (Stream<Path> files = Files.list(dir)) {
            return new Result(
                    plan,
                    History.read(files.filter(f -> f.toString().endsWith(".history"))
                            .sorted()
                            .toList()),
                    dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** Makes {@code dir} an empty directory for the run's files: history files are appended to. */
    private static void clear(Path dir) {
        try {
            Files.createDirectories(dir);
            try (Stream<Path> old = Files.list(dir)) {
                for (Path f : old.filter(Files::isRegularFile).toList()) {
                    Files.delete(f);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir + " for a run", e);
        }
    }

    /** The run's {@link Stage}: the workers it started, by id. */
    private static final class Controller implements Stage {
        private final Plan plan;
        private final Path dir;
        private final WorkerSettings template;
        private final EventLog log;
        private final String group;
        private final Tracker tracker = new Tracker();
        private final Map<String, RunningWorker> workers = new LinkedHashMap<>();
        private final List<String> killed = new ArrayList<>();
        private long end = Long.MAX_VALUE;

        Controller(Plan plan, Path dir, int ledgerPort, EventLog log, String suffix) {
            this.plan = plan;
            this.dir = dir;
            this.log = log;
            this.group = "faults-" + suffix;
            Duration lease = plan.target().lease();
            this.template = new WorkerSettings(
                    "w0",
                    "faults:" + plan.nemesis().flag() + ":" + suffix,
                    dir.resolve("w0.history"),
                    ledgerPort,
                    lease.multipliedBy(3),
                    plan.holdMin(),
                    plan.holdMax(),
                    Optional.of(lease),
                    plan.mode(),
                    plan.primitive());
        }

        void startWorker() {
            String id = "w" + (workers.size() + 1);
            Path history = dir.resolve(id + ".history");
            WorkerSettings settings = template.forWorker(id, history);
            RunningWorker w;
            if (plan.target().threads()) {
                w = new WorkerThread(settings, group);
            } else if (plan.nemesis() == Nemesis.CUT_SHORT || plan.nemesis() == Nemesis.CUT_LONG) {
                TcpProxy proxy = proxy();
                w = WorkerProcess.start(
                        settings,
                        plan.target().uriThrough(proxy.address()),
                        Optional.of(proxy),
                        dir.resolve(id + ".out"));
            } else {
                w = WorkerProcess.start(
                        settings, plan.target().uri().orElseThrow(), Optional.empty(), dir.resolve(id + ".out"));
            }
            workers.put(id, w);
            tracker.add(id, history);
        }

        private TcpProxy proxy() {
            var server = plan.target().server().orElseThrow();
            try {
                return new TcpProxy(server.host(), server.port());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start a proxy to " + plan.target(), e);
            }
        }

        void awaitReady() throws InterruptedException {
            long deadline = System.nanoTime() + START_BOUND.toNanos();
            while (!tracker.allReady()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the workers of " + plan.target() + " × "
                            + plan.nemesis().flag() + " did not all open a client and log an ATTEMPT within "
                            + START_BOUND + "; see their output in " + dir);
                }
                Thread.sleep(20);
            }
        }

        void stopAll() {
            log.write("STOPPING"); // from here on no grant is owed to anyone
            for (RunningWorker w : workers.values()) {
                if (!killed.contains(w.id())) {
                    w.requestStop();
                }
            }
            for (RunningWorker w : workers.values()) {
                OptionalInt code = w.awaitExit(Duration.ofSeconds(STOP_BOUND_SECONDS));
                if (code.isPresent()) {
                    log.write("EXIT", w.id(), code.getAsInt());
                } else {
                    log.write("HUNG", w.id());
                }
            }
        }

        @Override
        public Target target() {
            return plan.target();
        }

        @Override
        public EventLog log() {
            return log;
        }

        @Override
        public Tracker tracker() {
            return tracker;
        }

        @Override
        public RunningWorker worker(String id) {
            return workers.get(id);
        }

        @Override
        public void replace(String gone) {
            killed.add(gone);
            startWorker();
        }

        @Override
        public String lockName() {
            return template.name();
        }

        @Override
        public WorkerSettings.Primitive primitive() {
            return plan.primitive();
        }

        @Override
        public Duration remaining() {
            return Duration.ofNanos(Math.max(0, end - System.nanoTime()));
        }
    }
}
