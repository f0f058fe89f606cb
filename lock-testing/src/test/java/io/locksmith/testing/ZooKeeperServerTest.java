package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.curator.framework.CuratorFramework;

class ZooKeeperServerTest extends ServerContract {

    @Override
    TestServer server() {
        return TestServers.zookeeper();
    }

    @Override
    String uriPrefix() {
        return "zookeeper://127.0.0.1:";
    }

    @Override
    void ping(TestServer server) throws Exception {
        try (CuratorFramework curator = Curators.connect(server.uri())) {
            assertThat(curator.checkExists().forPath("/")).isNotNull();
        }
    }
}
