package io.locksmith.bench;

import io.locksmith.LockClient;
import io.locksmith.testing.TestServer;
import org.HdrHistogram.Histogram;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * ZooKeeper; its floor is the least a lock can cost with a Curator client: create an ephemeral
 * node and delete it, two round trips. Curator's own {@link InterProcessMutex} is measured in the
 * same run as a second yardstick.
 */
final class ZooKeeperBench implements BackendBench {

    private final TestServer server;
    private final CuratorFramework curator;

    ZooKeeperBench(TestServer server) {
        this.server = server;
        this.curator = curator();
    }

    private CuratorFramework curator() {
        CuratorFramework c = CuratorFrameworkFactory.builder()
                .connectString(server.host() + ":" + server.port())
                .sessionTimeoutMs(30_000)
                .connectionTimeoutMs(5_000)
                .retryPolicy(new RetryNTimes(0, 0))
                .build();
        c.start();
        return c;
    }

    @Override
    public String name() {
        return "zookeeper";
    }

    @Override
    public String version() {
        return "zookeeper " + server.version();
    }

    @Override
    public LockClient client() {
        return LockClient.open(server.uri());
    }

    @Override
    public String uri() {
        return server.uri();
    }

    @Override
    public Floor floor() {
        return new Floor() {
            @Override
            public void pair(String key) {
                try {
                    curator.create().withMode(CreateMode.EPHEMERAL).forPath("/" + key);
                    curator.delete().forPath("/" + key);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void close() {}
        };
    }

    /** Curator's {@link InterProcessMutex} acquire and release on the floor's client; Bench adds it as a row. */
    Histogram interProcessMutex(Scenarios s) {
        InterProcessMutex mutex = new InterProcessMutex(curator, "/bench-interprocess-mutex");
        return s.roundTrip(() -> {
            try {
                mutex.acquire();
                mutex.release();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The pair floor's ephemeral create and delete, on a Curator client (and session) of its own. */
    @Override
    public FloorConnection floorConnection() {
        CuratorFramework own = curator();
        return new FloorConnection() {
            @Override
            public boolean tryAcquire(String key) {
                try {
                    own.create().withMode(CreateMode.EPHEMERAL).forPath("/" + key);
                    return true;
                } catch (KeeperException.NodeExistsException e) {
                    return false;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void release(String key) {
                try {
                    own.delete().forPath("/" + key);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void close() {
                own.close();
            }
        };
    }

    /**
     * @param path the mutex's path
     * @return a contender that takes Curator's {@link InterProcessMutex} on a Curator client (and
     *     session) of its own, as issue 20's peer row does
     */
    Contention.Contender interProcessMutexContender(String path) {
        CuratorFramework own = curator();
        InterProcessMutex mutex = new InterProcessMutex(own, path);
        return new Contention.Contender() {
            @Override
            public void acquire() {
                try {
                    mutex.acquire();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void release() {
                try {
                    mutex.release();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void close() {
                own.close();
            }
        };
    }

    @Override
    public Runnable roundTrip() {
        return () -> {
            try {
                curator.checkExists().forPath("/");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    @Override
    public void close() {
        curator.close();
    }
}
