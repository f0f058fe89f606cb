package io.locksmith.zookeeper;

import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.DefaultACLProvider;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.data.ACL;

/**
 * Opens ZooKeeper URIs: {@code zookeeper://[user:password@]host1:2181,host2:2181[/chroot]}, or
 * {@code zk://…}.
 *
 * <p>Options: {@code session-timeout} (the ZooKeeper session, which is the lease of a holder that
 * dies or is cut off; default: the client's lease), {@code connection-timeout} (bound on
 * connecting and on every call; default 5s), {@code user} and {@code password} (digest
 * authentication, also as the URI's user-info), {@code acl} ({@code open}, {@code creator} or
 * {@code creator-read} on the nodes the client creates; default {@code creator} with credentials,
 * else {@code open}) and {@code suspended-grace} (how long locks stay held after the connection
 * drops; default the session timeout).
 *
 * <pre>{@code
 * try (LockClient locks = LockClient.open("zookeeper://zk1:2181,zk2:2181,zk3:2181/app?lease=20s")) { ... }
 * }</pre>
 */
public final class ZooKeeperLockProvider implements LockProvider {

    /** Creates the provider; {@link java.util.ServiceLoader} does this. */
    public ZooKeeperLockProvider() {}

    @Override
    public String name() {
        return "zookeeper";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("zookeeper", "zk");
    }

    @Override
    public Set<String> optionNames() {
        return Set.of("session-timeout", "connection-timeout", "user", "password", "acl", "suspended-grace");
    }

    @Override
    public LockBackend open(BackendContext context) {
        ZooKeeperSettings settings = ZooKeeperSettings.of(context);
        java.util.List<ACL> acl = settings.acl();
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(settings.connectString())
                .sessionTimeoutMs(millis(settings.sessionTimeout()))
                .connectionTimeoutMs(millis(settings.connectionTimeout()))
                // one try per call, bounded by the connection timeout: the core retries (and Leftovers
                // cleans up) instead, since Curator's retrying clean-ups do not stop while the server is down
                .retryPolicy(new RetryNTimes(0, 0))
                .waitForShutdownTimeoutMs(millis(settings.connectionTimeout()))
                .aclProvider(new DefaultACLProvider() {
                    @Override
                    public java.util.List<ACL> getDefaultAcl() {
                        return acl;
                    }

                    @Override
                    public java.util.List<ACL> getAclForPath(String path) {
                        return acl;
                    }
                });
        if (settings.hasCredentials()) {
            builder.authorization("digest", settings.digest());
        }
        CuratorFramework client = builder.build();
        client.start();
        try {
            return ZooKeeperBackend.open(
                    client,
                    context.redactedLocation(),
                    settings.chroot(),
                    settings.suspendedGrace(),
                    context,
                    client::close);
        } catch (RuntimeException e) {
            close(client);
            throw e;
        }
    }

    /**
     * Closes a client whose open failed. One that never got a session closes on a thread of its
     * own: ZooKeeper's close waits for its close-session request until the connection attempt
     * fails, which against a server that accepts but never answers is the session timeout per
     * server (30 s by default), far past the connection timeout the error has already named.
     */
    private static void close(CuratorFramework client) {
        if (client.getZookeeperClient().isConnected()) {
            client.close();
            return;
        }
        Thread closing = new Thread(client::close, "locksmith-zookeeper-close");
        closing.setDaemon(true);
        closing.start();
    }

    private static int millis(java.time.Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }
}
