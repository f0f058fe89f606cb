package io.locksmith.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.testing.TestServers;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The failover scenario measures what it says: on the memory backend, where nothing else is slow,
 * and on ZooKeeper, whose session a graceful close would end at once (deleting the leader's node)
 * where a crashed process's session is only expired by the server.
 */
class LeaderFailoverTest {

    @Test
    void aCrashedLeadersSuccessorIsElectedWhenItsLeaseRunsOutAndNotBefore() throws Exception {
        Duration lease = Duration.ofMillis(600);
        LeaderFailover.Outcome o = LeaderFailover.run("memory://bench-failover-test", lease, 2);
        assertThat(o.failoverMillis())
                .as("bench, leader failover: one figure per round")
                .hasSize(2);
        assertThat(o.failoverMillis())
                .as("bench, leader failover: the crashed leader's lease is kept (at least two thirds of"
                        + " it was left), and the successor follows within the lease plus a margin")
                .allSatisfy(ms -> assertThat(ms).isBetween(lease.toMillis() * 0.6, lease.toMillis() + 5_000.0));
    }

    @Test
    void onZooKeeperTheCrashedLeadersSessionIsExpiredByTheServerNotClosed() throws Exception {
        Duration lease = Duration.ofSeconds(2);
        LeaderFailover.Outcome o = LeaderFailover.run(TestServers.zookeeper().uri(), lease, 1);
        assertThat(o.failoverMillis())
                .as("bench, leader failover on ZooKeeper: the successor waits for the crashed leader's session"
                        + " to expire (its lease), which a closed session would not make it do")
                .allSatisfy(ms -> assertThat(ms).isBetween(lease.toMillis() * 0.6, lease.toMillis() + 10_000.0));
    }
}
