package io.locksmith.faults;

import io.locksmith.faults.CheckerPromises.Admission;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the {@link Checker} holds a run to: the workers' lease, the margins it allows, the backend's
 * wake-up promise, the exit codes of a normal stop and the faults the docs admit.
 *
 * <pre>{@code
 * CheckerSettings settings = CheckerSettings.forBackend("redis", Duration.ofSeconds(2), Duration.ofSeconds(1));
 * Findings findings = Checker.check(history, settings);
 * }</pre>
 *
 * @param lease       the lease the workers hold the lock with
 * @param margin      how much later than the lease a killed holder's lock may be granted again
 * @param wakeUp      how long after a release a waiter may wait for the next grant
 * @param recovery    how long after a server or network nemesis ends its effects may last (clients
 *                    reconnecting, a new leader or master taking over)
 * @param normalExits the exit codes of a worker stopped normally by the controller
 * @param admissions  the faults the backend's docs admit
 * @param permits     how many holders the run's primitive admits at once: 1, or a semaphore's permits
 */
public record CheckerSettings(
        Duration lease,
        Duration margin,
        Duration wakeUp,
        Duration recovery,
        Set<Integer> normalExits,
        List<Admission> admissions,
        int permits) {

    /** The margin a killed holder's lock gets beyond its lease unless set otherwise. */
    public static final Duration DEFAULT_MARGIN = Duration.ofSeconds(2);
    /** How long a nemesis's effects may outlast it unless set otherwise. */
    public static final Duration DEFAULT_RECOVERY = Duration.ofSeconds(5);

    /**
     * @param lease       the workers' lease
     * @param margin      beyond the lease, for a killed holder's lock
     * @param wakeUp      the wake-up promise
     * @param recovery    how long a nemesis's effects may outlast it
     * @param normalExits the exit codes of a normal stop
     * @param admissions  what the docs admit
     */
    public CheckerSettings {
        positive("lease", lease);
        positive("margin", margin);
        positive("wakeUp", wakeUp);
        positive("recovery", recovery);
        normalExits = Set.copyOf(normalExits);
        admissions = List.copyOf(admissions);
    }

    private static void positive(String what, Duration d) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + d);
        }
    }

    /**
     * Settings from a backend's documented promises ({@link CheckerPromises}): its wake-up promise and
     * admissions, a margin of {@link #DEFAULT_MARGIN}, a recovery of {@link #DEFAULT_RECOVERY}, and
     * exit codes 0 and 143 (SIGTERM) as a normal stop.
     *
     * @param backend    the backend's name, such as {@code redis}
     * @param lease      the workers' lease
     * @param backoffMax the workers' {@code backoff-max}, which bounds a polling backend's wake-up
     * @return the settings
     */
    public static CheckerSettings forBackend(String backend, Duration lease, Duration backoffMax) {
        return new CheckerSettings(
                lease,
                DEFAULT_MARGIN,
                CheckerPromises.wakeUp(backend, backoffMax),
                DEFAULT_RECOVERY,
                Set.of(0, 143),
                CheckerPromises.admissions(backend),
                1);
    }

    /**
     * @param permits how many holders the run's primitive admits at once (a semaphore's permits)
     * @return settings with them
     */
    public CheckerSettings withPermits(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1, was " + permits);
        }
        return new CheckerSettings(lease, margin, wakeUp, recovery, normalExits, admissions, permits);
    }

    /** @param margin beyond the lease, for a killed holder's lock @return settings with it */
    public CheckerSettings withMargin(Duration margin) {
        return new CheckerSettings(lease, margin, wakeUp, recovery, normalExits, admissions, permits);
    }

    /** @param wakeUp the wake-up promise @return settings with it */
    public CheckerSettings withWakeUp(Duration wakeUp) {
        return new CheckerSettings(lease, margin, wakeUp, recovery, normalExits, admissions, permits);
    }

    /** @param recovery how long a nemesis's effects may outlast it @return settings with it */
    public CheckerSettings withRecovery(Duration recovery) {
        return new CheckerSettings(lease, margin, wakeUp, recovery, normalExits, admissions, permits);
    }

    /** @param normalExits the exit codes of a normal stop @return settings with them */
    public CheckerSettings withNormalExits(Set<Integer> normalExits) {
        return new CheckerSettings(lease, margin, wakeUp, recovery, normalExits, admissions, permits);
    }

    /** @param admissions what the docs admit @return settings with them */
    public CheckerSettings withAdmissions(List<Admission> admissions) {
        return new CheckerSettings(lease, margin, wakeUp, recovery, normalExits, admissions, permits);
    }
}
