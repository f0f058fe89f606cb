package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.Client;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestServersExtension.class)
class EtcdClusterTest {

    @Test
    void namesThreeMembersInItsUri(@Server(Backend.ETCD) TestCluster etcd) {
        assertThat(etcd.members()).hasSize(3);
        assertThat(etcd.uri()).matches("etcd://127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.1:\\d+");
        assertThat(etcd.members()).allSatisfy(m -> assertThat(m.version()).startsWith("3."));
    }

    @Test
    void keepsServingWithItsLeaderKilled(@Server(Backend.ETCD) TestCluster etcd) throws Exception {
        try (Client client = EtcdClients.connect(etcd.uri())) {
            // on a busy machine a new cluster's first writes (three fsyncs each) can take seconds:
            // only the recovery is the subject here, so every step waits as long as it does
            Polls.until(Duration.ofSeconds(30), () -> EtcdServerTest.putAndGet(client, "before"));
            TestServer leader = etcd.leader();
            leader.kill();
            // a new leader is elected within an election timeout or two; retry until then
            Polls.until(Duration.ofSeconds(30), () -> EtcdServerTest.putAndGet(client, "without the old leader"));
            assertThat(etcd.leader()).isNotSameAs(leader);
            leader.restart();
            try (Client rejoined = EtcdClients.connect("etcd://127.0.0.1:" + leader.port())) {
                Polls.until(Duration.ofSeconds(30), () -> EtcdServerTest.putAndGet(rejoined, "after the rejoin"));
            }
        }
    }

    @Test
    void keepsServingWithAFollowerPaused(@Server(Backend.ETCD) TestCluster etcd) throws Exception {
        TestServer leader = etcd.leader();
        TestServer follower =
                etcd.members().stream().filter(m -> m != leader).findFirst().orElseThrow();
        try (Client client = EtcdClients.connect(etcd.uri())) {
            follower.pause();
            Polls.until(Duration.ofSeconds(30), () -> EtcdServerTest.putAndGet(client, "one member paused"));
            follower.resume();
        }
    }
}
