package io.locksmith.zookeeper;

import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.SecretUri;
import io.locksmith.testing.ProxiedSubject;
import io.locksmith.testing.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;

/**
 * A real ZooKeeper as the kit sees it: each client talks to the server through a proxy of its
 * own, so that one client can be cut off or its replies delayed; an admin client removes lock state
 * and queue entries as an operator would; the server can be restarted in place (the same server,
 * port and data directory: sessions and nodes are kept in its transaction log).
 */
final class ZooKeeperSubject extends ProxiedSubject {

    /** Sessions shorter than this expire by accident on two loaded cores; the server allows 1 s. */
    static final Duration TEST_LEASE = Duration.ofSeconds(2);

    private static final String SECRET = "kit-zookeeper-s3cret";
    /** The chroot of the credential rule's clients: their nodes get digest ACLs, which no other client may meet. */
    private static final String SECRET_CHROOT = "/kit-secret";

    private final CuratorFramework admin;

    ZooKeeperSubject(TestServer server) {
        super("zookeeper", server, address -> "zookeeper://" + address + "?connection-timeout=2s");
        this.admin = admin(server.host() + ":" + server.port());
    }

    static CuratorFramework admin(String connectString) {
        CuratorFramework c = CuratorFrameworkFactory.newClient(connectString, 30_000, 10_000, new RetryOneTime(200));
        c.start();
        return c;
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder()
                .minimumLease(ZooKeeperBackend.MINIMUM_LEASE)
                .testLease(TEST_LEASE)
                .nativeWakeUp(true)
                .fifo(true)
                .maximumLease(TEST_LEASE) // a lease is at most the session, which the kit's clients set to it
                .lacks(Fault.SKEW_WALL_CLOCK) // leases are sessions: no client wall clock is read
                .build();
    }

    /**
     * Digest credentials, which ZooKeeper accepts from anyone (they become the ACL of the nodes the
     * client makes), under a chroot of their own so that those ACLs keep no other client out.
     */
    @Override
    public Optional<SecretUri> secretUri() {
        try {
            admin.create().orSetData().forPath(SECRET_CHROOT);
        } catch (Exception e) {
            throw new IllegalStateException("could not create " + SECRET_CHROOT, e);
        }
        String auth = "zookeeper://kit:" + SECRET + "@";
        String path = SECRET_CHROOT + "?connection-timeout=2s";
        return Optional.of(new SecretUri(
                auth + server().host() + ":" + server().port() + path, SECRET, auth + unreachableAddress() + path));
    }

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

    @Override
    public void close() {
        try {
            admin.close();
        } finally {
            super.close();
        }
    }
}
