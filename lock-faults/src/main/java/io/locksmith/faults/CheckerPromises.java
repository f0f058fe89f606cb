package io.locksmith.faults;

import io.locksmith.faults.Findings.Kind;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * What each backend's docs promise the checker, and what they admit: how soon a release wakes a
 * waiter, and which faults may follow which nemesis. Each admission cites the section of the docs
 * that states it; a fault the docs do not state is a violation, whatever the backend.
 *
 * <p>Backends are named as the fault suite names them: {@code memory}, {@code redis} (and
 * {@code redis-sentinel}, {@code redis-cluster}, and {@code redis-aof}, which persists), {@code etcd}, {@code zookeeper},
 * {@code postgres} (or {@code postgresql}), {@code mariadb}, {@code sqlite}, {@code azurite}.
 */
public final class CheckerPromises {

    /**
     * The docs admit {@code kinds} between a grant made before a {@code trigger} nemesis (or while
     * it lasted) and a grant made after it began.
     *
     * @param kinds    the faults admitted
     * @param triggers the controller's event kinds that begin the nemesis, such as {@code SERVER_KILL}
     * @param reason   why, in words, with the doc section that says so
     */
    public record Admission(Set<Kind> kinds, Set<String> triggers, String reason) {

        /**
         * @param kinds    the faults admitted
         * @param triggers the controller's event kinds that begin the nemesis
         * @param reason   why, with the doc section
         */
        public Admission {
            kinds = Set.copyOf(kinds);
            triggers = Set.copyOf(triggers);
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** The faults that follow a lock store that forgets grants: two holders, tokens that go back. */
    private static final Set<Kind> FORGOTTEN_GRANTS = EnumSet.of(
            Kind.DOUBLE_GRANT, Kind.TOKEN_REGRESSION, Kind.DUPLICATE_TOKEN, Kind.STALE_ACCEPTED, Kind.LIVE_REJECTED);

    /** The faults that follow tokens that go back, with no second holder. */
    private static final Set<Kind> TOKENS_GO_BACK =
            EnumSet.of(Kind.TOKEN_REGRESSION, Kind.DUPLICATE_TOKEN, Kind.STALE_ACCEPTED, Kind.LIVE_REJECTED);

    private CheckerPromises() {}

    /**
     * @param backend the backend's name
     * @return what its docs admit; empty where every promise holds under every nemesis
     */
    public static List<Admission> admissions(String backend) {
        String b = backend.toLowerCase(Locale.ROOT);
        if (b.startsWith("redis-aof")) {
            // docs/backends/redis.md, "Guarantees, exactly": "With appendonly yes and appendfsync always
            // the keys survive a restart and neither happens"; lock-testing's persistent Redis runs so
            return List.of();
        }
        if (b.startsWith("redis")) {
            return List.of(
                    // docs/backends/redis.md, "Guarantees, exactly": a restart without persistence
                    // frees every lock ("two holders for up to one renewal interval") and restarts the
                    // counters at 1 ("tokens go back"); lock-testing runs redis-server with
                    // --save '' --appendonly no
                    new Admission(
                            FORGOTTEN_GRANTS,
                            Set.of("SERVER_KILL"),
                            "Redis restarted without persistence, docs/backends/redis.md#guarantees-exactly"),
                    // ibid., "On failover" and "On a Cluster failover": replication is asynchronous, so the
                    // new master can lack the lock key ("a second holder") and lag on the counter ("tokens
                    // can go back"). A slot migration admits nothing: "tokens keep increasing" through it
                    new Admission(
                            FORGOTTEN_GRANTS,
                            Set.of("FAILOVER", "LEADER_KILL"),
                            "Redis failover to a replica that missed grants, docs/backends/redis.md#guarantees-exactly"));
        }
        if (b.startsWith("postgres")) {
            // docs/backends/jdbc.md, "Durability and fencing": with synchronous_commit=off a crash can
            // forget the last commits, "and the next grant can carry a token that was already handed
            // out"; lock-testing runs PostgreSQL with synchronous_commit=off
            return List.of(new Admission(
                    TOKENS_GO_BACK,
                    Set.of("SERVER_KILL"),
                    "PostgreSQL killed with synchronous_commit=off, docs/backends/jdbc.md#durability-and-fencing"));
        }
        if (b.startsWith("azurite")) {
            // docs/backends/azure-blob.md, "Tests": Azurite, the emulator, saves its state only every
            // 5 s and on SIGTERM ("after a SIGKILL restart the counter written in the last seconds is
            // gone and a token repeats"), and reads every lease back as expired after a restart. The
            // service itself keeps both across its own restarts; this admits the emulator's loss only
            return List.of(new Admission(
                    FORGOTTEN_GRANTS,
                    Set.of("SERVER_KILL"),
                    "Azurite killed: the emulator saves its state every 5 s, docs/backends/azure-blob.md#tests"));
        }
        return List.of();
    }

    /**
     * The longest a waiter may wait for the next grant after a release (docs/semantics.md,
     * "Waiting"): woken by the backend's signal where it has one, otherwise within one back-off step.
     *
     * @param backend    the backend's name
     * @param backoffMax the workers' {@code backoff-max}
     * @return about a second for backends that signal a release; the back-off maximum plus half a
     *         second for those that poll
     */
    public static Duration wakeUp(String backend, Duration backoffMax) {
        return signals(backend) ? Duration.ofSeconds(1) : backoffMax.plusMillis(500);
    }

    /**
     * @param backend the backend's name
     * @return whether it wakes waiters on a release: Redis pub/sub, etcd and ZooKeeper watches,
     *         PostgreSQL NOTIFY, the memory backend's own signal
     */
    static boolean signals(String backend) {
        String b = backend.toLowerCase(Locale.ROOT);
        return b.startsWith("redis")
                || b.startsWith("etcd")
                || b.startsWith("zookeeper")
                || b.startsWith("zk")
                || b.startsWith("postgres")
                || b.startsWith("memory");
    }
}
