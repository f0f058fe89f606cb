package io.locksmith.faults;

import io.locksmith.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs one {@link Nemesis} for the length of a run: a fault, held for its time, undone, then a gap
 * of a lease (two after a kill, half of one between compactions) so that the lock settles before
 * the next; at most {@value #MAX_FAULTS} faults. Each
 * is logged when it has taken effect ({@code KILL} once the process is gone, {@code PAUSE} once
 * stopped) and each undoing just before it is undone ({@code RESUME}, {@code RESTORE}), so that a
 * worker's line after a {@code RESUME} is truly from after it. A fault is always undone, also
 * when the run is cut short.
 */
final class Nemeses {

    private static final int MAX_FAULTS = 8;
    private static final int MAX_COMPACTIONS = 40;
    /** A waiter must have waited this long to count as queued behind the holder. */
    private static final Duration QUEUED = Duration.ofMillis(200);

    private static final Pattern REVISION = Pattern.compile("\"revision\":\"?(\\d+)");

    private final Stage stage;
    private final Duration lease;
    private final RedisNemeses redis;

    Nemeses(Stage stage) {
        this.stage = stage;
        this.lease = stage.target().lease();
        this.redis = new RedisNemeses(stage);
    }

    void run(Nemesis nemesis) throws InterruptedException {
        int max = nemesis == Nemesis.COMPACT ? MAX_COMPACTIONS : MAX_FAULTS;
        Duration gap = switch (nemesis) {
            case COMPACT -> lease.dividedBy(2);
            // the dead holder's lease runs out first; then let a few grants happen before the next kill
            case KILL -> lease.multipliedBy(2);
            default -> lease;
        };
        int done = 0;
        while (done < max && stage.remaining().compareTo(faultTime(nemesis).plus(gap)) > 0) {
            if (once(nemesis)) {
                done++;
            }
            sleep(gap);
        }
        sleep(stage.remaining()); // the run lasts its length, whatever room was left for faults
    }

    /** How long a fault lasts, so that one is not started when the run has no room for it. */
    private Duration faultTime(Nemesis n) {
        return switch (n) {
            case NONE, KILL, COMPACT -> Duration.ZERO;
            // a failover takes about 1 s to detect and a few to elect; FAILOVER_BOUND is its limit
            case PAUSE, PAUSE_WAITER, SERVER_PAUSE, LEADER_KILL, CUT_LONG, FAILOVER -> lease.multipliedBy(2);
            case PAUSE_AFTER_GRANT -> lease.multipliedBy(8).dividedBy(10);
            case SERVER_RESTART, CUT_SHORT, MIGRATE -> lease.dividedBy(2);
        };
    }

    /** @return whether the fault happened (a holder or waiter was found in time) */
    private boolean once(Nemesis n) throws InterruptedException {
        switch (n) {
            case NONE -> {
                return false;
            }
            case KILL -> {
                return holder().map(w -> {
                            w.kill();
                            stage.log().write("KILL", w.id());
                            stage.tracker().gone(w.id());
                            stage.replace(w.id());
                            return true;
                        })
                        .orElse(false);
            }
            case PAUSE -> {
                return pause(holder(), lease.multipliedBy(2));
            }
            case PAUSE_AFTER_GRANT -> {
                long now = System.nanoTime();
                return pause(
                        find(s -> s.holding && s.grantNanos - now > 0),
                        lease.multipliedBy(8).dividedBy(10));
            }
            case PAUSE_WAITER -> {
                return pause(
                        find(s -> s.waitingSince >= 0
                                && System.nanoTime() - s.waitingSince > QUEUED.toNanos()
                                && stage.tracker().holdsOtherThan(s)),
                        lease.multipliedBy(2));
            }
            case SERVER_RESTART -> {
                TestServer server = stage.target().server().orElseThrow();
                server.kill();
                stage.log().write("SERVER_KILL");
                try {
                    sleep(lease.dividedBy(2));
                } finally {
                    server.restart();
                    stage.log().write("SERVER_UP");
                }
                return true;
            }
            case SERVER_PAUSE -> {
                TestServer server = stage.target().server().orElseThrow();
                server.pause();
                stage.log().write("SERVER_PAUSE");
                try {
                    sleep(lease.multipliedBy(2));
                } finally {
                    stage.log().write("SERVER_RESUME");
                    server.resume();
                }
                return true;
            }
            case COMPACT -> {
                return compact(stage.target().server().orElseThrow());
            }
            case LEADER_KILL -> {
                TestServer leader = stage.target().cluster().orElseThrow().leader();
                leader.kill();
                stage.log().write("LEADER_KILL");
                try {
                    sleep(lease.multipliedBy(2));
                } finally {
                    leader.restart();
                    stage.log().write("SERVER_UP");
                }
                return true;
            }
            case FAILOVER -> {
                if (stage.target().sentinel().isPresent()) {
                    return redis.sentinelFailover(stage.target().sentinel().get());
                }
                // in a Cluster, the master of the lock's slot, while someone holds the lock there
                return holder().isPresent()
                        && redis.clusterFailover(stage.target().redisCluster().orElseThrow());
            }
            case MIGRATE -> {
                // while one worker holds and another waits
                return find(s -> s.waitingSince >= 0 && stage.tracker().holdsOtherThan(s))
                                .isPresent()
                        && redis.migrate(stage.target().redisCluster().orElseThrow());
            }
            case CUT_SHORT -> {
                return cut(lease.dividedBy(2));
            }
            case CUT_LONG -> {
                return cut(lease.multipliedBy(2));
            }
        }
        throw new AssertionError(n);
    }

    private Optional<RunningWorker> holder() {
        return find(s -> s.holding);
    }

    /** A live worker in the state asked for, waited for up to two leases. */
    private Optional<RunningWorker> find(Predicate<Tracker.State> test) {
        return stage.tracker().await(test, lease.multipliedBy(2)).map(s -> stage.worker(s.id));
    }

    private boolean pause(Optional<RunningWorker> target, Duration length) throws InterruptedException {
        if (target.isEmpty()) {
            return false;
        }
        RunningWorker w = target.get();
        w.pause();
        stage.log().write("PAUSE", w.id());
        try {
            sleep(length);
        } finally {
            stage.log().write("RESUME", w.id());
            w.resume();
        }
        return true;
    }

    private boolean cut(Duration length) throws InterruptedException {
        Optional<RunningWorker> target = holder();
        if (target.isEmpty()) {
            return false;
        }
        RunningWorker w = target.get();
        w.cut();
        stage.log().write("CUT", w.id());
        try {
            sleep(length);
        } finally {
            stage.log().write("RESTORE", w.id());
            w.restore();
        }
        return true;
    }

    /** Compacts etcd to its current revision through its JSON gateway; etcd keeps no other history. */
    private boolean compact(TestServer etcd) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String base = "http://" + etcd.host() + ":" + etcd.port() + "/v3/kv/";
        String range = post(http, base + "range", "{\"key\":\"AA==\"}");
        Matcher m = REVISION.matcher(range);
        if (!m.find()) {
            throw new IllegalStateException("etcd's range answer names no revision: " + range);
        }
        String revision = m.group(1);
        post(http, base + "compaction", "{\"revision\":\"" + revision + "\",\"physical\":true}");
        stage.log().write("COMPACT", revision);
        return true;
    }

    private static String post(HttpClient http, String url, String body) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(10))
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("etcd answered " + r.statusCode() + " to " + url + ": " + r.body());
            }
            return r.body();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach etcd's gateway at " + url, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while compacting etcd", e);
        }
    }

    static void sleep(Duration d) throws InterruptedException {
        if (!d.isNegative() && !d.isZero()) {
            Thread.sleep(d.toMillis()); // the fault lasts this long: time is the subject here
        }
    }
}
