package io.locksmith.zookeeper;

import io.locksmith.spi.AcquireRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * The few ZooKeeper calls the lock recipe makes, each bounded by the client's connection timeout
 * (Curator retries nothing: the core and the queue decide when to try again). Nodes that must go
 * but could not be deleted are left to {@link Leftovers}.
 */
final class NodeOps {

    /**
     * One waiter's or holder's node.
     *
     * @param lockPath the lock's container node
     * @param path the node's full path
     * @param czxid the transaction that created it: the fencing token if it comes to hold the lock
     * @param session the session that owns it (its ephemeralOwner): only while that session is the
     *     client's current one may the node be granted
     */
    record LockNode(String lockPath, String path, long czxid, long session) {
        String name() {
            return LockPaths.name(path);
        }
    }

    /** Renewal reads this many nodes in one call at most; 1,000 short paths are ~100 KB, well under jute.maxbuffer. */
    private static final int MAX_BATCH_BYTES = 512 * 1024;

    private final CuratorFramework client;
    private final String description;
    private final Leftovers leftovers;

    NodeOps(CuratorFramework client, String description) {
        this.client = client;
        this.description = description;
        this.leftovers = new Leftovers(client);
    }

    Leftovers leftovers() {
        return leftovers;
    }

    CuratorFramework client() {
        return client;
    }

    String description() {
        return description;
    }

    /**
     * Creates the request's node in the lock's queue: ephemeral (it lives as long as the session),
     * sequential (its place in the queue), under a container parent the server deletes once it is
     * empty. The data is the owner, for operators. The name starts with a prefix unique to this
     * create (as Curator's protection does), so that a create whose answer was lost is found and
     * deleted instead of left in the queue, and a duplicate made by a retrying client's second try
     * is recognised as ours ({@link LockPaths#predecessor}).
     */
    LockNode create(String lockPath, AcquireRequest request) {
        String protection = LockPaths.protection();
        return create(lockPath, protection, LockPaths.nodePrefix(lockPath, protection), request);
    }

    /**
     * Creates the request's node in the queue of a semaphore or a read-write lock, as {@link
     * #create(String, AcquireRequest)} does for a lock; its name says what it holds ({@link
     * SharedPaths}).
     */
    LockNode createShared(String parent, AcquireRequest request) {
        String protection = LockPaths.protection();
        return create(parent, protection, SharedPaths.nodePrefix(parent, protection, request.hold()), request);
    }

    private LockNode create(String lockPath, String protection, String prefix, AcquireRequest request) {
        byte[] owner = request.owner().getBytes(StandardCharsets.UTF_8);
        for (int attempt = 0; ; attempt++) {
            Stat stat = new Stat();
            try {
                String path = client.create()
                        .storingStatIn(stat)
                        .creatingParentContainersIfNeeded()
                        .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                        .forPath(prefix, owner);
                return withToken(
                        new LockNode(lockPath, path, stat.getCzxid(), stat.getEphemeralOwner()), request.name());
            } catch (KeeperException.NoNodeException e) {
                if (attempt >= 2) {
                    throw Failures.of("queueing for lock '" + request.name() + "'", description, e);
                }
                // the server reaped the empty container between Curator creating it and our create: again
            } catch (Exception e) {
                if (Failures.isConnection(e)) {
                    leftovers.lostCreate(lockPath, protection);
                }
                throw Failures.of("queueing for lock '" + request.name() + "'", description, e);
            }
        }
    }

    /** @return the lock node's children, or none if it does not exist */
    List<String> children(String lockPath, String lockName) {
        try {
            return client.getChildren().forPath(lockPath);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (Exception e) {
            throw Failures.of("listing the queue of lock '" + lockName + "'", description, e);
        }
    }

    /**
     * Lists the lock node's children and leaves a watch on the list: a holder learns of its own
     * node's deletion from it without a request of its own (see {@link HeldNode#queueWatch}).
     */
    List<String> childrenWatched(String lockPath, Watcher watcher, String lockName) {
        try {
            return client.getChildren().usingWatcher(watcher).forPath(lockPath);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (Exception e) {
            throw Failures.of("listing the queue of lock '" + lockName + "'", description, e);
        }
    }

    /**
     * Sends the create of {@link #create} without waiting for the answer, so that the next request
     * rides the same round trip: ZooKeeper answers a session's requests in the order they were
     * sent, so a listing sent right after the create sees the created node. Curator sends it at
     * once when connected (later, within the connection timeout, when not); on a lost answer the
     * node it may have made is left to {@link Leftovers}.
     *
     * @return the node, once the server has made it; pass it through {@link #withToken}
     */
    CompletableFuture<LockNode> createInBackground(String lockPath, AcquireRequest request) {
        String protection = LockPaths.protection();
        return createInBackground(lockPath, protection, LockPaths.nodePrefix(lockPath, protection), request);
    }

    /** {@link #createInBackground(String, AcquireRequest)} for a semaphore's or read-write lock's queue. */
    CompletableFuture<LockNode> createSharedInBackground(String parent, AcquireRequest request) {
        String protection = LockPaths.protection();
        return createInBackground(
                parent, protection, SharedPaths.nodePrefix(parent, protection, request.hold()), request);
    }

    private CompletableFuture<LockNode> createInBackground(
            String lockPath, String protection, String prefix, AcquireRequest request) {
        CompletableFuture<LockNode> created = new CompletableFuture<>();
        try {
            client.create()
                    .creatingParentContainersIfNeeded()
                    .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                    .inBackground((c, event) -> {
                        if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
                            Stat stat = event.getStat();
                            created.complete(new LockNode(
                                    lockPath,
                                    event.getName(),
                                    stat == null ? 0 : stat.getCzxid(),
                                    stat == null ? 0 : stat.getEphemeralOwner()));
                        } else {
                            KeeperException e = KeeperException.create(
                                    KeeperException.Code.get(event.getResultCode()), event.getPath());
                            if (Failures.isConnection(e)) {
                                leftovers.lostCreate(lockPath, protection);
                            }
                            created.completeExceptionally(e);
                        }
                    })
                    .forPath(prefix, request.owner().getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            created.completeExceptionally(e);
        }
        return created;
    }

    /**
     * A node with its fencing token and session. Curator may give no stat for a create it retried
     * (a client handed in with a retry policy): they are read then, once.
     */
    LockNode withToken(LockNode node, String lockName) {
        if (node.czxid() != 0 && node.session() != 0) {
            return node;
        }
        try {
            Stat stat = client.checkExists().forPath(node.path());
            if (stat == null) {
                throw new KeeperException.NoNodeException(node.path());
            }
            return new LockNode(node.lockPath(), node.path(), stat.getCzxid(), stat.getEphemeralOwner());
        } catch (Exception e) {
            throw Failures.of("queueing for lock '" + lockName + "'", description, e);
        }
    }

    /**
     * Waits for the answer to a request sent in the background. Curator answers every request,
     * with a connection loss at worst; the bound is only a backstop.
     *
     * @param what the operation, for the error message
     */
    <T> T await(CompletableFuture<T> answer, String what) {
        try {
            return answer.get(answerBoundMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw Failures.of(what, description, e.getCause());
        } catch (InterruptedException e) {
            throw Failures.of(what, description, e);
        } catch (TimeoutException e) {
            throw Failures.of(what, description, new KeeperException.OperationTimeoutException());
        }
    }

    private long answerBoundMillis() {
        var zk = client.getZookeeperClient();
        return 2L * (zk.getConnectionTimeoutMs() + zk.getLastNegotiatedSessionTimeoutMs());
    }

    /**
     * Marks a shared node granted: rewrites its data (the owner) and returns the transaction that
     * did, the grant's fencing token. Taken at grant time, not at the create, because shared grants
     * are not made in the order their nodes were created (one release can let two permits go, a
     * reader ahead of a writer is granted after it queued). Nobody else writes a node's data, so a
     * node whose mzxid differs from its czxid has been granted.
     */
    long markGranted(String path, AcquireRequest request) {
        try {
            return client.setData()
                    .forPath(path, request.owner().getBytes(StandardCharsets.UTF_8))
                    .getMzxid();
        } catch (Exception e) {
            throw Failures.of("granting " + request.hold() + " of '" + request.name() + "'", description, e);
        }
    }

    /**
     * Watches a node for deletion and for a change of its data (its grant, for a shared node).
     *
     * @return its stat when the watch was set, or null if it did not exist
     */
    Stat watchChanges(String path, Watcher watcher, String lockName) {
        try {
            return client.checkExists().usingWatcher(watcher).forPath(path);
        } catch (Exception e) {
            throw Failures.of("watching the queue of '" + lockName + "'", description, e);
        }
    }

    /**
     * Watches several nodes as {@link #watchChanges} does, in one round trip: the requests are
     * sent together and answered in order.
     *
     * @return one stat per path, null where the node did not exist
     */
    List<Stat> watchChanges(List<String> paths, Watcher watcher, String lockName) {
        List<CompletableFuture<Stat>> answers = new ArrayList<>(paths.size());
        for (String path : paths) {
            CompletableFuture<Stat> answer = new CompletableFuture<>();
            answers.add(answer);
            try {
                client.checkExists()
                        .usingWatcher(watcher)
                        .inBackground((c, event) -> {
                            int rc = event.getResultCode();
                            if (rc == KeeperException.Code.OK.intValue()) {
                                answer.complete(event.getStat());
                            } else if (rc == KeeperException.Code.NONODE.intValue()) {
                                answer.complete(null);
                            } else {
                                answer.completeExceptionally(
                                        KeeperException.create(KeeperException.Code.get(rc), event.getPath()));
                            }
                        })
                        .forPath(path);
            } catch (Exception e) {
                answer.completeExceptionally(e);
            }
        }
        List<Stat> out = new ArrayList<>(paths.size());
        for (CompletableFuture<Stat> answer : answers) {
            out.add(await(answer, "watching the queue of '" + lockName + "'"));
        }
        return out;
    }

    /** Watches a node for deletion; @return whether it existed when the watch was set */
    boolean watch(String path, Watcher watcher, String lockName) {
        try {
            return client.checkExists().usingWatcher(watcher).forPath(path) != null;
        } catch (Exception e) {
            throw Failures.of("watching the queue of lock '" + lockName + "'", description, e);
        }
    }

    /**
     * Watches a node without waiting for the answer: the request rides the connection with the
     * caller's next one, so holding a watch on one's own node costs no round trip.
     */
    void watchInBackground(String path, Watcher watcher, Runnable ifMissing) {
        try {
            client.checkExists()
                    .usingWatcher(watcher)
                    .inBackground((c, event) -> {
                        if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
                            ifMissing.run();
                        }
                    })
                    .forPath(path);
        } catch (Exception e) {
            // not connected: the renewal's ownership check finds a removed node instead
        }
    }

    /**
     * Deletes a node; if the server cannot be reached it is deleted after the next reconnection
     * (or goes with its session).
     *
     * @return whether it existed
     */
    boolean delete(String path, String lockName) {
        try {
            client.delete().forPath(path);
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        } catch (Exception e) {
            if (Failures.isConnection(e)) {
                leftovers.delete(path);
            }
            throw Failures.of("releasing lock '" + lockName + "'", description, e);
        }
    }

    /** Deletes a node without waiting; if the server cannot be reached, after the next reconnection. */
    void deleteInBackground(String path) {
        leftovers.delete(path);
    }

    /**
     * Reads the stat of every node in as few calls as the server takes (a read-only multi, one
     * round trip for up to about a thousand locks).
     *
     * @return one stat per path, {@code null} where the node does not exist
     */
    List<Stat> stats(List<String> paths, String lockName) {
        List<Stat> out = new ArrayList<>(paths.size());
        int from = 0;
        while (from < paths.size()) {
            int to = from;
            int bytes = 0;
            List<Op> ops = new ArrayList<>();
            while (to < paths.size() && (ops.isEmpty() || bytes < MAX_BATCH_BYTES)) {
                String raw = ZKPaths.fixForNamespace(client.getNamespace(), paths.get(to++));
                bytes += raw.length() * 3 + 16;
                ops.add(Op.getData(raw));
            }
            try {
                for (OpResult r : client.getZookeeperClient().getZooKeeper().multi(ops)) {
                    out.add(r instanceof OpResult.GetDataResult data ? data.getStat() : stat(r, lockName));
                }
            } catch (Exception e) {
                throw Failures.of("renewing " + paths.size() + " lock(s) ('" + lockName + "', ...)", description, e);
            }
            from = to;
        }
        return out;
    }

    private Stat stat(OpResult r, String lockName) {
        int code =
                r instanceof OpResult.ErrorResult error ? error.getErr() : KeeperException.Code.SYSTEMERROR.intValue();
        if (code == KeeperException.Code.NONODE.intValue()) {
            return null;
        }
        throw Failures.of(
                "renewing lock '" + lockName + "'",
                description,
                KeeperException.create(KeeperException.Code.get(code)));
    }

    /**
     * Deletes the nodes that share our node's protection prefix but are not it: a retrying client
     * (one handed in with a retry policy) may have made one with a first try whose answer was lost.
     */
    void deleteStrays(LockNode node, List<String> children) {
        String protection = LockPaths.protectionOf(node.name());
        for (String child : children) {
            if (!protection.isEmpty() && child.startsWith(protection) && !child.equals(node.name())) {
                leftovers.delete(node.lockPath() + "/" + child);
            }
        }
    }

    /** @return the session the client has now; nodes of any other session are not ours */
    long sessionId() {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            throw Failures.of("reading the session", description, e);
        }
    }
}
