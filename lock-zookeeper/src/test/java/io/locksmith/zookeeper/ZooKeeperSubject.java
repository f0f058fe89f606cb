package io.locksmith.zookeeper;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.Faults;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.TcpProxy;
import io.locksmith.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;

/**
 * A real ZooKeeper as the kit sees it: each client talks to the server through a proxy of its
 * own, so that one client can be cut off or its replies delayed; an admin client removes lock state
 * as an operator would; the server can be restarted in place.
 */
final class ZooKeeperSubject implements TckSubject {

    /** Sessions shorter than this expire by accident on two loaded cores; the server allows 1 s. */
    static final Duration TEST_LEASE = Duration.ofSeconds(2);

    private final TestServer server;
    private final CuratorFramework admin;
    private final Map<LockClient, TcpProxy> proxies = new ConcurrentHashMap<>();

    ZooKeeperSubject(TestServer server) {
        this.server = server;
        this.admin = admin(server.host() + ":" + server.port());
    }

    static CuratorFramework admin(String connectString) {
        CuratorFramework c = CuratorFrameworkFactory.newClient(connectString, 30_000, 10_000, new RetryOneTime(200));
        c.start();
        return c;
    }

    @Override
    public String name() {
        return "zookeeper";
    }

    @Override
    public LockClient newClient(LockOptions options) {
        TcpProxy proxy;
        try {
            proxy = new TcpProxy(server.host(), server.port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LockClient client = LockClient.open("zookeeper://" + proxy.address() + "?connection-timeout=2s", options,
                backend -> new ForwardingLockBackend(backend) {
                    @Override
                    public void close() {
                        super.close();
                        proxy.close();
                    }
                });
        proxies.put(client, proxy);
        return client;
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder().minimumLease(ZooKeeperBackend.MINIMUM_LEASE).testLease(TEST_LEASE)
                .nativeWakeUp(true).fifo(true)
                .maximumLease(TEST_LEASE) // a lease is at most the session, which the kit's clients set to it
                .lacks(Fault.SKEW_WALL_CLOCK) // leases are sessions: no client wall clock is read
                .build();
    }

    @Override
    public Faults faults() {
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                try {
                    admin.delete().deletingChildrenIfNeeded().forPath(LockPaths.lock(key));
                } catch (KeeperException.NoNodeException e) {
                    // nothing to remove
                } catch (Exception e) {
                    throw new IllegalStateException("could not remove " + LockPaths.lock(key), e);
                }
            }

            @Override
            public void cutConnection(LockClient client) {
                proxies.get(client).cut();
            }

            @Override
            public void restoreConnection(LockClient client) {
                proxies.get(client).restore();
            }

            /** The same server, port and data directory: sessions and nodes are kept in its transaction log. */
            @Override
            public void restartServer() {
                server.restart();
            }

            @Override
            public void delayReplies(LockClient client, Duration delay) {
                proxies.get(client).delayReplies(delay);
            }

            /** Deletes every node of the queue but the lowest, the holder's. */
            @Override
            public void removeQueueEntries(String key) {
                String lockPath = LockPaths.lock(key);
                try {
                    List<String> queue = new ArrayList<>(admin.getChildren().forPath(lockPath));
                    queue.sort(Comparator.comparingLong(LockPaths::sequence));
                    for (String waiter : queue.subList(Math.min(1, queue.size()), queue.size())) {
                        admin.delete().forPath(lockPath + "/" + waiter);
                    }
                } catch (KeeperException.NoNodeException e) {
                    // no queue, or an entry that went meanwhile: nothing (more) to remove
                } catch (Exception e) {
                    throw new IllegalStateException("could not remove the waiters of " + lockPath, e);
                }
            }
        };
    }

    @Override
    public void close() {
        admin.close();
        proxies.values().forEach(TcpProxy::close);
    }
}
