package io.locksmith.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SchedulerInstanceTest {

    /** A scheduler that records whether it runs and under which term. */
    private static final class Recording implements SchedulerInstance.Scheduler {
        final AtomicLong runningTerm = new AtomicLong(); // 0: stopped

        @Override
        public void start(long term) {
            runningTerm.set(term);
        }

        @Override
        public void stop() {
            runningTerm.set(0);
        }

        boolean running() {
            return runningTerm.get() != 0;
        }
    }

    @Test
    void oneInstanceRunsTheSchedulerAndAnotherTakesOverWhenItStops() {
        Recording onA = new Recording();
        Recording onB = new Recording();
        try (LockClient clientA = LockClient.open("memory://scheduler-example");
                LockClient clientB = LockClient.open("memory://scheduler-example");
                SchedulerInstance a = new SchedulerInstance(clientA, "host-a", onA);
                SchedulerInstance b = new SchedulerInstance(clientB, "host-b", onB)) {
            await("a leader runs the scheduler")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> onA.running() || onB.running());
            assertThat(onA.running() && onB.running())
                    .as("[memory] leader example: one scheduler runs, not two")
                    .isFalse();
            SchedulerInstance leader = a.isLeader() ? a : b;
            SchedulerInstance follower = leader == a ? b : a;
            Recording leaderScheduler = leader == a ? onA : onB;
            Recording followerScheduler = leader == a ? onB : onA;
            String leaderHost = leader == a ? "host-a" : "host-b";
            assertThat(follower.leader())
                    .as("[memory] leader example: the follower sees who leads")
                    .contains(leaderHost);
            long firstTerm = leaderScheduler.runningTerm.get();

            leader.close();

            await("the other instance takes over").atMost(Duration.ofMinutes(1)).until(followerScheduler::running);
            assertThat(leaderScheduler.running())
                    .as("[memory] leader example: the old leader stopped its scheduler")
                    .isFalse();
            assertThat(followerScheduler.runningTerm.get())
                    .as("[memory] leader example: the new term is greater than the old")
                    .isGreaterThan(firstTerm);
            assertThat(List.of(follower.isLeader(), leader.isLeader())).containsExactly(true, false);
        }
    }
}
