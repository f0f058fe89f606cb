package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestServersExtension.class)
class ZooKeeperEnsembleTest {

    @Test
    void namesThreeMembersInItsUri(@Server(Backend.ZOOKEEPER) TestCluster zookeeper) {
        assertThat(zookeeper.members()).hasSize(3);
        assertThat(zookeeper.uri())
                .matches("zookeeper://127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.1:\\d+");
    }

    @Test
    void keepsServingWithItsLeaderKilled(@Server(Backend.ZOOKEEPER) TestCluster zookeeper) throws Exception {
        try (CuratorFramework curator = Curators.connect(zookeeper.uri())) {
            String path =
                    curator.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath("/selftest-", new byte[0]);
            TestServer leader = zookeeper.leader();
            leader.kill();
            // the other two elect a leader and the client moves to one of them
            Polls.until(
                    Duration.ofSeconds(30),
                    () -> assertThat(curator.checkExists().forPath(path)).isNotNull());
            assertThat(zookeeper.leader()).isNotSameAs(leader);
            leader.restart();
            try (CuratorFramework rejoined = Curators.connect("zookeeper://127.0.0.1:" + leader.port())) {
                Polls.until(
                        Duration.ofSeconds(30),
                        () -> assertThat(rejoined.checkExists().forPath("/")).isNotNull());
            }
        }
    }
}
