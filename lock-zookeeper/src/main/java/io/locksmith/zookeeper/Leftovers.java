package io.locksmith.zookeeper;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nodes this client made and must remove: a released, expired or abandoned node, and the node a
 * create may have made when its answer was lost (found by the create's protection prefix). Each
 * is tried once at once and, if the server could not be reached, once more after every
 * reconnection, until it is gone; the server removes it anyway when the session ends.
 *
 * <p>Why not Curator's {@code guaranteed()} delete and {@code withProtection()} create: both
 * resubmit their clean-up through the retry policy, and with a policy that allows no retry (this
 * module's, so that every call is bounded) the clean-up of a failed protected create resubmits
 * itself recursively while the server is unreachable — stack overflows and hundreds of megabytes
 * of log within seconds — and a guaranteed delete logs an error once per connection timeout for
 * as long as the outage lasts. Here an outage costs one attempt per node and reconnection, and
 * no log line above debug.
 *
 * <p>Requests go to the ZooKeeper handle directly and asynchronously: they fail at once when the
 * connection is down instead of waiting for it, and never block the caller.
 */
final class Leftovers {

    private static final Logger log = LoggerFactory.getLogger(Leftovers.class);

    private final CuratorFramework client;
    private final Set<String> nodes = ConcurrentHashMap.newKeySet();
    /** Creates whose answer was lost: protection prefix to the lock node it was made under. */
    private final Map<String, String> creates = new ConcurrentHashMap<>();

    Leftovers(CuratorFramework client) {
        this.client = client;
    }

    /** Deletes a node of ours without waiting; remembered until it is gone if the server cannot be reached. */
    void delete(String path) {
        nodes.add(path);
        ZooKeeper zk = handle();
        if (zk == null) {
            return;
        }
        zk.delete(
                ZKPaths.fixForNamespace(client.getNamespace(), path),
                -1,
                (rc, p, ctx) -> {
                    if (!unreachable(rc)) {
                        nodes.remove(path);
                        if (rc != KeeperException.Code.OK.intValue() && rc != KeeperException.Code.NONODE.intValue()) {
                            log.debug("could not delete {}: {}", path, KeeperException.Code.get(rc));
                        }
                    }
                },
                null);
    }

    /**
     * Records a create whose answer was lost: the node it may have made is found by its
     * protection prefix among the lock node's children, and deleted, once the server answers.
     *
     * @param lockPath the lock node the create was made under
     * @param protection the prefix unique to that create ({@link LockPaths#protection()})
     */
    void lostCreate(String lockPath, String protection) {
        creates.put(protection, lockPath);
        find(protection, lockPath);
    }

    /** Tries every remembered node again: the connection is back. */
    void retry() {
        for (String path : nodes) {
            delete(path);
        }
        creates.forEach((protection, lockPath) -> find(protection, lockPath));
    }

    int size() {
        return nodes.size() + creates.size();
    }

    private void find(String protection, String lockPath) {
        ZooKeeper zk = handle();
        if (zk == null) {
            return;
        }
        zk.getChildren(
                ZKPaths.fixForNamespace(client.getNamespace(), lockPath),
                false,
                (int rc, String p, Object ctx, List<String> children) -> {
                    if (unreachable(rc)) {
                        return;
                    }
                    creates.remove(protection);
                    if (children != null) {
                        for (String child : children) {
                            if (child.startsWith(protection)) {
                                delete(lockPath + "/" + child);
                            }
                        }
                    }
                },
                null);
    }

    /** @return the current handle, or null if there is none (closing, or not connected yet) */
    private ZooKeeper handle() {
        try {
            return client.getZookeeperClient().getZooKeeper();
        } catch (Exception e) {
            return null; // retried on the next reconnection
        }
    }

    private static boolean unreachable(int rc) {
        return rc == KeeperException.Code.CONNECTIONLOSS.intValue()
                || rc == KeeperException.Code.OPERATIONTIMEOUT.intValue()
                || rc == KeeperException.Code.REQUESTTIMEOUT.intValue()
                || rc == KeeperException.Code.SESSIONEXPIRED.intValue()
                || rc == KeeperException.Code.SESSIONMOVED.intValue();
    }
}
