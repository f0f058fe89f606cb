package io.locksmith.zookeeper;

import io.locksmith.LockBackendException;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The read-only look at a lock for operations tools: the lowest node of the lock's queue holds,
 * its data is the owner and its czxid the token. A semaphore's or read-write lock's holders are
 * the nodes of its queue marked granted (mzxid past czxid), the mzxid their token, listed in that
 * order, which is the order of their grants. The lease is the holder's session, whose
 * remaining time ZooKeeper tells no other client, so it is reported unknown.
 */
final class ZooKeeperInspector implements LockInspector {

    /** Looks at a queue whose head is deleted between listing and reading this many times before giving up. */
    private static final int LOOKS = 3;

    private final CuratorFramework client;
    private final String description;

    ZooKeeperInspector(CuratorFramework client, String description) {
        this.client = client;
        this.description = description;
    }

    @Override
    public Optional<HolderState> inspect(String key) {
        String lockPath = LockPaths.lock(key);
        try {
            for (int look = 0; look < LOOKS; look++) {
                String head = head(lockPath);
                if (head == null) {
                    return Optional.empty();
                }
                Stat stat = new Stat();
                try {
                    byte[] owner = client.getData().storingStatIn(stat).forPath(lockPath + "/" + head);
                    return Optional.of(
                            new HolderState(new String(owner, StandardCharsets.UTF_8), stat.getCzxid(), null));
                } catch (KeeperException.NoNodeException e) {
                    // released between the listing and the read: the next node may hold now
                }
            }
        } catch (Exception e) {
            throw Failures.of("inspecting lock '" + key + "'", description, e);
        }
        throw new LockBackendException("inspecting lock '" + key + "' on " + description
                + ": the holder changed on each of " + LOOKS + " looks; try again");
    }

    @Override
    public Optional<List<Holder>> holders(String key, Hold.Kind kind) {
        if (kind == Hold.Kind.EXCLUSIVE) {
            return Optional.empty();
        }
        String parent = SharedPaths.parent(kind == Hold.Kind.PERMIT ? Hold.permitOf(1) : Hold.READ, key);
        List<Holder> holders = new ArrayList<>();
        try {
            List<String> children;
            try {
                children = client.getChildren().forPath(parent);
            } catch (KeeperException.NoNodeException e) {
                return Optional.of(List.of());
            }
            for (String child : children) {
                SharedPaths.Entry entry = SharedPaths.parse(child);
                if (entry == null) {
                    continue;
                }
                Stat stat = new Stat();
                try {
                    byte[] owner = client.getData().storingStatIn(stat).forPath(parent + "/" + child);
                    if (stat.getMzxid() != stat.getCzxid()) {
                        holders.add(new Holder(
                                entry.kind(),
                                new HolderState(new String(owner, StandardCharsets.UTF_8), stat.getMzxid(), null)));
                    }
                } catch (KeeperException.NoNodeException e) {
                    // released between the listing and the read
                }
            }
        } catch (Exception e) {
            throw Failures.of("listing the holders of '" + key + "'", description, e);
        }
        holders.sort(Comparator.comparingLong(h -> h.state().token()));
        return Optional.of(holders);
    }

    /** @return the lowest of the lock's queue nodes, or null if there are none */
    private String head(String lockPath) throws Exception {
        List<String> children;
        try {
            children = client.getChildren().forPath(lockPath);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
        String head = null;
        for (String child : children) {
            long sequence = LockPaths.sequence(child);
            if (sequence >= 0 && (head == null || sequence < LockPaths.sequence(head))) {
                head = child;
            }
        }
        return head;
    }
}
