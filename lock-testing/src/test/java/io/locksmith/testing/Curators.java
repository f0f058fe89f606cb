package io.locksmith.testing;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

/** Curator clients for the {@code zookeeper://h:p,h:p} URIs the fixtures hand out. */
final class Curators {

    private Curators() {}

    /** A started client, connected within a few seconds or closed and failed. */
    static CuratorFramework connect(String zookeeperUri) throws InterruptedException {
        CuratorFramework curator = CuratorFrameworkFactory.builder()
                .connectString(zookeeperUri.substring("zookeeper://".length()))
                .connectionTimeoutMs(2_000)
                .sessionTimeoutMs(10_000)
                .retryPolicy(new RetryOneTime(100))
                .build();
        curator.start();
        if (!curator.blockUntilConnected(3, TimeUnit.SECONDS)) {
            curator.close();
            throw new IllegalStateException("curator did not connect to " + zookeeperUri + " within 3 s");
        }
        return curator;
    }
}
