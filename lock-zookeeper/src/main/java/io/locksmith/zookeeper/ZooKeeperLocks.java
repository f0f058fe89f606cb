package io.locksmith.zookeeper;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import java.util.Objects;
import org.apache.curator.framework.CuratorFramework;

/**
 * Lock clients over a Curator client the application already has. The lock client uses the
 * Curator client's session (its session timeout bounds the lease), connection, retry policy,
 * namespace, authentication and ACL provider, and leaves it open when closed.
 *
 * <pre>{@code
 * CuratorFramework curator = CuratorFrameworkFactory.newClient("zk1:2181,zk2:2181", new RetryOneTime(100));
 * curator.start();
 * try (LockClient locks = ZooKeeperLocks.open(curator, LockOptions.builder().lease(Duration.ofSeconds(20)).build())) {
 *     ...
 * }
 * }</pre>
 */
public final class ZooKeeperLocks {

    private ZooKeeperLocks() {}

    /**
     * @param client a started Curator client; not closed by the lock client
     * @param options the lock options; the lease must not exceed the client's session timeout
     * @return a lock client on the Curator client's session
     * @throws IllegalArgumentException if the client is not started
     * @throws io.locksmith.LockBackendException if no server answers within the client's connection timeout
     * @throws io.locksmith.LockConfigurationException if the lease exceeds the session timeout
     */
    public static LockClient open(CuratorFramework client, LockOptions options) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(options, "options");
        String description = "zookeeper://" + client.getZookeeperClient().getCurrentConnectionString()
                + (client.getNamespace().isEmpty() ? "" : " (namespace " + client.getNamespace() + ")")
                + " (existing client)";
        return LockClient.of(
                context -> ZooKeeperBackend.open(client, description, "", null, context, () -> {}), options);
    }
}
