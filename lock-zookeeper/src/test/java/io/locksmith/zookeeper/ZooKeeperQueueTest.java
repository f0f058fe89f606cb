package io.locksmith.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Grant;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.testing.TcpProxy;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The native queue as the core sees it, a ticket at a time: which node a waiter may be granted
 * on, when its lease was last confirmed, and how a ticket ends when the session or the
 * connection does.
 */
class ZooKeeperQueueTest {

    private static TestServer server;
    private static String hostPort;
    private static CuratorFramework admin;

    @BeforeAll
    static void connect() {
        server = TestServers.zookeeper();
        hostPort = server.host() + ":" + server.port();
        admin = ZooKeeperSubject.admin(hostPort);
    }

    @AfterAll
    static void disconnect() {
        admin.close();
    }

    @Test
    void aWaiterWhoseSessionWasReplacedIsNeverGrantedOnTheOldSessionsNode() throws Exception {
        CuratorFramework curator = curator(hostPort);
        try (LockClient holder = LockClient.open("zookeeper://" + hostPort + "?lease=20s");
                Backend waiter = backend(curator)) {
            LockHandle held = holder.lock("replaced").acquire(Duration.ZERO);
            QueuedAcquirer.Ticket ticket = waiter.queue().enqueue(request("replaced", "waiter-1"));
            long oldSession = sessionOf(curator);
            // Curator's own way to end a session from the client's side: the server keeps the old
            // session, and its node in the queue, until the session times out (20 s)
            curator.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                long now = sessionOf(curator);
                return now != 0
                        && now != oldSession
                        && curator.getZookeeperClient().isConnected();
            });
            held.close(); // the old session's node is now the lowest, unless the waiter has let it go

            Object outcome = outcome(ticket.granted());
            if (outcome instanceof Grant grant) {
                Stat node = admin.checkExists().forPath(((HeldNode) grant.attachment()).path());
                assertThat(node == null ? 0 : node.getEphemeralOwner())
                        .as("[zookeeper] queue: a grant is made only on a node of the client's current session")
                        .isEqualTo(sessionOf(curator));
            } else {
                assertThat(outcome)
                        .as("[zookeeper] queue: a ticket whose session ended fails with a backend error")
                        .isInstanceOf(LockBackendException.class);
            }
        }
    }

    @Test
    void aWaitThroughASessionReplacementIsGrantedOnANodeOfTheNewSession() throws Exception {
        CuratorFramework curator = curator(hostPort);
        try (LockClient holder = LockClient.open("zookeeper://" + hostPort + "?lease=20s");
                LockClient waiter = ZooKeeperLocks.open(
                        curator,
                        LockOptions.builder().lease(Duration.ofSeconds(10)).build())) {
            LockHandle held = holder.lock("replaced-wait").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> waiting = waiter.lock("replaced-wait").acquireAsync(Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> admin.getChildren()
                                    .forPath(LockPaths.lock("replaced-wait"))
                                    .size()
                            == 2);
            long oldSession = sessionOf(curator);
            curator.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                long now = sessionOf(curator);
                return now != 0
                        && now != oldSession
                        && curator.getZookeeperClient().isConnected();
            });
            held.close();

            LockHandle granted = waiting.get(30, TimeUnit.SECONDS);
            String lockPath = LockPaths.lock("replaced-wait");
            long owner = 0;
            for (String child : admin.getChildren().forPath(lockPath)) {
                Stat stat = admin.checkExists().forPath(lockPath + "/" + child);
                if (stat != null && stat.getCzxid() == granted.fencingToken()) {
                    owner = stat.getEphemeralOwner();
                }
            }
            assertThat(owner)
                    .as("[zookeeper] queue: the wait goes on through a new session and is granted on its node")
                    .isEqualTo(sessionOf(curator));
            granted.close();
        } finally {
            curator.close();
        }
    }

    @Test
    void aQueuedGrantSaysWhenTheRequestThatConfirmedItsSessionWasSent() throws Exception {
        try (LockClient holder = LockClient.open("zookeeper://" + hostPort + "?lease=20s");
                Backend waiter = backend(curator(hostPort))) {
            LockHandle held = holder.lock("confirmed").acquire(Duration.ZERO);
            long enqueued = System.nanoTime();
            QueuedAcquirer.Ticket ticket = waiter.queue().enqueue(request("confirmed", "waiter-2"));
            held.close();
            Grant grant = ticket.granted().get(20, TimeUnit.SECONDS);
            long arrived = System.nanoTime();
            assertThat(grant.confirmedAt())
                    .as("[zookeeper] pause guard: a queued grant carries the send time of the request that confirmed"
                            + " its session")
                    .isPresent();
            assertThat(grant.confirmedAt().getAsLong())
                    .as("[zookeeper] pause guard: that request was sent while the waiter queued, before the grant")
                    .isBetween(enqueued, arrived);
        }
    }

    @Test
    void aTicketFailsCleanlyOnConnectionLossAndLeavesNoNodeBehind() throws Exception {
        TcpProxy proxy = new TcpProxy(server.host(), server.port());
        try (LockClient holder = LockClient.open("zookeeper://" + hostPort + "?lease=20s");
                Backend waiter = backend(curator(proxy.address()))) {
            LockHandle held = holder.lock("cut-waiter").acquire(Duration.ZERO);
            QueuedAcquirer.Ticket ticket = waiter.queue().enqueue(request("cut-waiter", "waiter-3"));
            proxy.cut();
            Object outcome = outcome(ticket.granted());
            assertThat(outcome)
                    .as("[zookeeper] queue: a ticket fails with a backend error when the connection is lost")
                    .isInstanceOf(LockBackendException.class);
            ticket.cancel();
            proxy.restore();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(admin.getChildren().forPath(LockPaths.lock("cut-waiter")))
                            .as("[zookeeper] queue: a failed ticket leaves only the holder's node")
                            .hasSize(1));
            assertThat(held.isHeld()).isTrue();
            held.close();
        } finally {
            proxy.close();
        }
    }

    /** @return the ticket's grant or failure, once it has one (within a generous bound) */
    private static Object outcome(CompletableFuture<Grant> granted) {
        return granted.handle((g, e) -> g != null ? (Object) g : e)
                .orTimeout(30, TimeUnit.SECONDS)
                .join();
    }

    private static AcquireRequest request(String key, String owner) {
        return AcquireRequest.of(key, key, owner, Duration.ofSeconds(10));
    }

    private static CuratorFramework curator(String connectString) {
        CuratorFramework c = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(20_000)
                .connectionTimeoutMs(2_000)
                .retryPolicy(new RetryNTimes(0, 0))
                .build();
        c.start();
        return c;
    }

    /** A backend on the curator client, opened inside a lock client that gives it its context and closes it. */
    private static Backend backend(CuratorFramework curator) {
        AtomicReference<ZooKeeperBackend> opened = new AtomicReference<>();
        LockClient client = LockClient.of(
                context -> {
                    opened.set(ZooKeeperBackend.open(curator, "zookeeper://test", "", null, context, curator::close));
                    return opened.get();
                },
                LockOptions.builder().lease(Duration.ofSeconds(10)).build());
        return new Backend(client, opened.get());
    }

    /** The backend whose queue a test uses directly, and the client that owns it. */
    private record Backend(LockClient client, ZooKeeperBackend backend) implements AutoCloseable {
        QueuedAcquirer queue() {
            return backend.queue().orElseThrow();
        }

        @Override
        public void close() {
            client.close();
        }
    }

    private static long sessionOf(CuratorFramework curator) throws Exception {
        return curator.getZookeeperClient().getZooKeeper().getSessionId();
    }
}
