package io.locksmith.faults;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The faults the controller injects, one kind per run, each bounded in count and in time.
 * {@code L} is the run's lease. What each does to a thread worker (memory) is in
 * {@link WorkerThread}; {@link #appliesTo} says where each makes sense.
 */
enum Nemesis {
    /** Nothing: the baseline. */
    NONE,
    /** The holder gets {@code kill -9}; a fresh worker takes its place. */
    KILL,
    /** The holder is stopped (SIGSTOP) for 2L, past its lease, then continued. */
    PAUSE,
    /** A worker is stopped just after its {@code GRANT} line for 0.8L, just under its lease. */
    PAUSE_AFTER_GRANT,
    /** A worker waiting in the backend's queue is stopped for 2L, then continued. */
    PAUSE_WAITER,
    /** The server is killed and restarted on its data after L/2; lock-testing's plain Redis keeps none. */
    SERVER_RESTART,
    /** The server is stopped (SIGSTOP) for 2L, then continued. */
    SERVER_PAUSE,
    /** etcd's history is compacted to its current revision every L/2, under the waiters' watches. */
    COMPACT,
    /** The cluster's leader is killed; it is restarted 2L later. */
    LEADER_KILL,
    /**
     * The Redis master is killed (under a Sentinel, the one it names; in a Cluster, the one that
     * serves the lock's slot); its replica is promoted; the old master comes back as a replica.
     */
    FAILOVER,
    /**
     * The lock's Redis Cluster slot is moved to another master while one worker holds the lock and
     * another waits, held for L/2 once its keys have moved (the ASK window).
     */
    MIGRATE,
    /** The holder's connection to the server is cut for L/2, shorter than its lease. */
    CUT_SHORT,
    /** The holder's connection to the server is cut for 2L, longer than its lease. */
    CUT_LONG;

    /** @return the nemesis as the command line spells it: {@code kill}, {@code pause-after-grant}, … */
    String flag() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Nemesis ofFlag(String flag) {
        return Arrays.stream(values())
                .filter(n -> n.flag().equals(flag))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown nemesis '" + flag + "': use one of "
                        + Arrays.stream(values()).map(Nemesis::flag).toList()));
    }

    /**
     * Whether the nemesis can run against a target. Memory (threads) has no server process, no
     * queue and no history, so only the worker faults and the cut apply there; a cluster and the
     * Sentinel group are run for their own nemesis only, the single servers covering the rest.
     *
     * @param t the target
     * @return whether it applies
     */
    boolean appliesTo(Target t) {
        boolean clustered = t.cluster().isPresent()
                || t.sentinel().isPresent()
                || t.redisCluster().isPresent();
        return switch (this) {
            case NONE -> true;
            case KILL, PAUSE, PAUSE_AFTER_GRANT -> !clustered;
            case PAUSE_WAITER -> t.queues() && !clustered;
            case SERVER_RESTART, SERVER_PAUSE -> t.server().isPresent();
            case COMPACT -> t.compacts();
            case LEADER_KILL -> t.cluster().isPresent();
            case FAILOVER -> t.sentinel().isPresent() || t.redisCluster().isPresent();
            case MIGRATE -> t.redisCluster().isPresent();
            case CUT_SHORT, CUT_LONG -> t.server().isPresent() || t.threads();
        };
    }

    /**
     * The nemeses of the full matrix for a target: every one that applies but the baseline.
     * Azure's 15 s lease makes each of its faults cost a minute, so it runs the four that tell
     * most: a killed and a paused holder, a restarted server, a cut longer than the lease. The
     * persistent Redis runs only the restart: the other faults are plain Redis's.
     *
     * @param t the target
     * @return the nemeses, in declaration order
     */
    static List<Nemesis> matrix(Target t) {
        return Arrays.stream(values())
                .filter(n -> n != NONE && n.appliesTo(t))
                .filter(n -> !t.name().equals("azurite")
                        || List.of(KILL, PAUSE, SERVER_RESTART, CUT_LONG).contains(n))
                .filter(n -> !t.name().equals("redis-aof") || n == SERVER_RESTART)
                .toList();
    }
}
