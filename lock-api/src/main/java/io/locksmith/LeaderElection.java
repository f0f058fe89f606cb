package io.locksmith;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Leader election among the clients of one backend: each participant that {@link #start()}s
 * stands for leadership of a name, and at most one of them is leader at any instant. Leadership is
 * a held lock: it has a lease, renewed while the leader runs, and the leader learns it lost
 * leadership by the same rules as a lost lock, including its local deadline after a pause. A
 * leader that loses leadership stands again at once, unless the election was closed.
 *
 * <pre>{@code
 * try (LeaderElection election = locks.leaderElection("scheduler", hostName)) {
 *     election.addListener(new LeaderElection.Listener() {
 *         public void elected(long term) { scheduler.start(term); }
 *         public void revoked(long term, LossReason reason) { scheduler.stop(); }
 *     });
 *     election.start();
 *     ...
 * }
 * }</pre>
 *
 * <p>The term is the leadership's fencing token: strictly greater than every earlier leader's
 * term. Pass it with every write the leader makes so that the resource can refuse an old leader's.
 */
public interface LeaderElection extends AutoCloseable {

    /** What a participant hears about its own leadership. Called on a client worker thread, in order. */
    interface Listener {
        /**
         * This participant became leader.
         *
         * @param term the leadership's fencing token
         */
        default void elected(long term) {}

        /**
         * This participant lost leadership without asking for it (its lease could not be kept,
         * the backend removed it); it is standing again unless the election was closed.
         *
         * @param term the term that ended
         * @param reason why
         */
        default void revoked(long term, LossReason reason) {}

        /**
         * This participant gave up leadership because the election was closed.
         *
         * @param term the term that ended
         */
        default void resigned(long term) {}
    }

    /** @return the election's name */
    String name();

    /** @return this participant's identity, as given */
    String identity();

    /**
     * Starts standing for leadership, in the background. Idempotent.
     *
     * @return this election
     * @throws IllegalStateException if the election or its client is closed
     */
    LeaderElection start();

    /** @return whether this participant is leader now: elected, and its lease not known to be lost */
    boolean isLeader();

    /** @return the current term if this participant is leader */
    OptionalLong term();

    /**
     * Waits until this participant is leader.
     *
     * @param wait how long to wait at most; zero answers at once
     * @return whether it is leader
     * @throws LockInterruptedException if the thread is interrupted (its flag stays set)
     */
    boolean awaitLeadership(Duration wait);

    /**
     * @return the current leader's identity, as the backend tells it; empty if there is none or
     *     the backend cannot tell
     */
    Optional<String> leader();

    /**
     * Adds a listener. One added while this participant leads hears {@link Listener#elected} at once.
     *
     * @param listener the listener
     * @return this election
     */
    LeaderElection addListener(Listener listener);

    /** Stops standing, and resigns leadership if this participant holds it. Idempotent. */
    @Override
    void close();
}
