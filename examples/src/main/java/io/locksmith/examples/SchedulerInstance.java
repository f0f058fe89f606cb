package io.locksmith.examples;

import io.locksmith.LeaderElection;
import io.locksmith.LockClient;
import io.locksmith.LossReason;
import java.util.Optional;

/**
 * Leader election: every instance of the application stands, and the one elected runs the
 * scheduler. When the leader stops or loses its lease, another instance is elected and starts it;
 * a revoked leader stops its scheduler and stands again.
 */
public final class SchedulerInstance implements AutoCloseable {

    private final LeaderElection election;

    /**
     * Starts standing for the scheduler's leadership.
     *
     * @param locks the application's client
     * @param hostName how the other instances know this one
     * @param scheduler started when this instance is elected, stopped when it no longer leads
     */
    public SchedulerInstance(LockClient locks, String hostName, Scheduler scheduler) {
        this.election = locks.leaderElection("scheduler", hostName);
        election.addListener(new LeaderElection.Listener() {
            @Override
            public void elected(long term) {
                scheduler.start(term); // the term fences the jobs' writes: an old leader's are refused
            }

            @Override
            public void revoked(long term, LossReason reason) {
                scheduler.stop();
            }

            @Override
            public void resigned(long term) {
                scheduler.stop();
            }
        });
        election.start();
    }

    /** @return whether this instance runs the scheduler now */
    public boolean isLeader() {
        return election.isLeader();
    }

    /** @return the host name of the instance that leads, where the backend can tell */
    public Optional<String> leader() {
        return election.leader();
    }

    /** Stops standing; a leader resigns, and another instance is elected. */
    @Override
    public void close() {
        election.close();
    }

    /** What the leader runs. */
    public interface Scheduler {
        /**
         * @param term the leadership's fencing token, strictly greater than every earlier leader's
         */
        void start(long term);

        /** Stops the jobs: this instance no longer leads. */
        void stop();
    }
}
