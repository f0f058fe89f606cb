package io.locksmith.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockException;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LockStatus;
import io.locksmith.LossReason;
import io.locksmith.testing.RefusingPort;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the kit cannot see: the node layout, watches, batching, deployments and the errors users meet. */
class ZooKeeperBackendTest {

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

    @ParameterizedTest
    @ValueSource(
            strings = {".", "..", "a/b", "/", "%", "%002E", "東京", "\u0000", "\ud83d\ude00", "\ud800", "order:12345"})
    void keysEscapeToValidDistinctPaths(String key) {
        String path = LockPaths.lock(key);
        PathUtils.validatePath(path);
        assertThat(path.chars().filter(c -> c == '/').count()).isEqualTo(2);
        assertThat(LockPaths.escape(key)).isNotIn(".", "..").isNotEqualTo(LockPaths.escape(key + "x"));
        Set<String> escaped = new HashSet<>();
        for (String k : List.of(".", "..", "%", "%0025", "%002E", "a/b", "a%002Fb", "\ud800", "?")) {
            escaped.add(LockPaths.escape(k));
        }
        assertThat(escaped).hasSize(9);
        assertThat(LockPaths.escape("order:12345")).isEqualTo("order:12345");
    }

    @Test
    void aNodeMadeByTheSameCreateIsNeverAheadOfOurs() {
        // a retrying client's first try, whose answer was lost, left a lower node with our prefix
        String ours = "_c_aaaa-lock-0000000005";
        assertThat(LockPaths.predecessor(ours, List.of("_c_aaaa-lock-0000000003", ours)))
                .isEmpty();
        assertThat(LockPaths.predecessor(ours, List.of("_c_aaaa-lock-0000000003", "_c_bbbb-lock-0000000004", ours)))
                .contains("_c_bbbb-lock-0000000004");
        assertThat(LockPaths.protectionOf(ours)).isEqualTo("_c_aaaa-");
    }

    @Test
    void theHolderIsTheLowestEphemeralNodeUnderAContainerAndItsCzxidIsTheToken() throws Exception {
        try (LockClient locks = LockClient.open(uri("?lease=20s"))) {
            LockHandle h = locks.lock("layout").acquire(Duration.ZERO);
            String lockPath = LockPaths.lock("layout");
            List<String> children = admin.getChildren().forPath(lockPath);
            assertThat(children).hasSize(1);
            Stat node = admin.checkExists().forPath(lockPath + "/" + children.get(0));
            assertThat(node.getCzxid()).isEqualTo(h.fencingToken());
            assertThat(node.getEphemeralOwner())
                    .as("an ephemeral node: it goes with the session")
                    .isNotZero();
            h.close();
            assertThat(admin.getChildren().forPath(lockPath)).isEmpty();
        }
    }

    @Test
    void statusNamesTheLowestNodesOwnerAndTokenNotAWaitersAndLeavesTheSessionsLeaseUnknown() throws Exception {
        try (LockClient holder = LockClient.open(uri("?lease=20s"));
                LockClient waiter = LockClient.open(uri("?lease=20s"));
                LockClient operator = LockClient.open(uri(""))) {
            assertThat(operator.lock("status").status().state())
                    .as("zookeeper: a name never taken is free")
                    .isEqualTo(LockStatus.State.FREE);
            LockHandle first = holder.lock("status").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> next = waiter.lock("status").acquireAsync(Duration.ofSeconds(60));
            String lockPath = LockPaths.lock("status");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> admin.getChildren().forPath(lockPath).size() == 2);
            LockStatus status = operator.lock("status").status();
            assertThat(status.state())
                    .as("zookeeper: a held lock's status, read by another client")
                    .isEqualTo(LockStatus.State.HELD);
            assertThat(status.fencingToken())
                    .as("zookeeper: the holder's token, not the queued waiter's")
                    .hasValue(first.fencingToken());
            assertThat(status.owner()).as("zookeeper: the holder's owner id").isPresent();
            assertThat(status.remainingLease())
                    .as("zookeeper: the lease is the holder's session, unknown to others")
                    .isEmpty();
            first.close();
            try (LockHandle second = next.get(30, TimeUnit.SECONDS)) {
                assertThat(operator.lock("status").status().fencingToken())
                        .as("zookeeper: the next holder's token")
                        .hasValue(second.fencingToken());
            }
            assertThat(operator.lock("status").status().state())
                    .as("zookeeper: a released lock is free")
                    .isEqualTo(LockStatus.State.FREE);
        }
    }

    @Test
    void aNodeDeletedBehindTheHoldersBackIsReportedByItsWatchNotOnlyAtRenewal() throws Exception {
        try (LockClient locks = LockClient.open(uri("?lease=30s"))) {
            LockHandle h = locks.lock("watched").acquire(Duration.ZERO);
            String lockPath = LockPaths.lock("watched");
            admin.delete()
                    .forPath(lockPath + "/"
                            + admin.getChildren().forPath(lockPath).get(0));
            // renewal runs every 10 s: within 5 s only the watch can have told it
            await().atMost(Duration.ofSeconds(5)).until(() -> !h.isHeld());
            assertThat(h.whenLost().toCompletableFuture().getNow(null)).isEqualTo(LossReason.OWNERSHIP_LOST);
        }
    }

    @Test
    void anAcquireInterruptedBeforeTheServerAnswersLeavesNoNodeBehind() throws Exception {
        try (LockClient locks = LockClient.open(uri("?lease=20s"))) {
            String lockPath = LockPaths.lock("interrupted");
            Thread.currentThread().interrupt(); // the create is sent, then the wait for its answer is interrupted
            try {
                assertThatThrownBy(() -> locks.lock("interrupted").acquire(Duration.ZERO))
                        .isInstanceOf(LockException.class)
                        .hasMessageContaining("interrupted");
                assertThat(Thread.currentThread().isInterrupted())
                        .as("the interrupt is kept")
                        .isTrue();
            } finally {
                Thread.interrupted();
            }
            // the node the server made after all is deleted once its answer arrives
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> admin.checkExists().forPath(lockPath) == null
                            || admin.getChildren().forPath(lockPath).isEmpty());
            locks.lock("interrupted").acquire(Duration.ZERO).close();
        }
    }

    @Test
    void aLeaseThatIsNotRenewedEndsOnTheServerToo() throws Exception {
        try (LockClient locks = LockClient.open(uri("?lease=1s"))) {
            LockHandle h = locks.lock("unrenewed").withAutoRenew(false).acquire(Duration.ZERO);
            String lockPath = LockPaths.lock("unrenewed");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> admin.getChildren().forPath(lockPath).isEmpty());
            assertThat(h.isHeld()).isFalse();
        }
    }

    @Test
    void aWaiterGetsTheLockWhenAnUnrenewedLeaseRunsOutThoughTheHoldersSessionLivesOn() throws Exception {
        try (LockClient holder = LockClient.open(uri("?lease=20s"));
                LockClient waiter = LockClient.open(uri("?lease=20s"))) {
            LockHandle h = holder.lock("unrenewed-waited")
                    .withLease(Duration.ofSeconds(1))
                    .withAutoRenew(false)
                    .acquire(Duration.ZERO);
            CompletableFuture<LockHandle> next = waiter.lock("unrenewed-waited").acquireAsync(Duration.ofSeconds(60));
            // the holder's session lives on for 20 s: only the holder deleting its node when the lease ends frees it
            // sooner
            await("[zookeeper] lease: a waiter is granted when the holder's unrenewed 1 s lease ends, not its session")
                    .atMost(Duration.ofSeconds(10))
                    .until(next::isDone);
            try (LockHandle granted = next.join()) {
                assertThat(h.isHeld())
                        .as("[zookeeper] lease: the unrenewed holder no longer counts the lock held")
                        .isFalse();
                assertThat(h.whenLost().toCompletableFuture().getNow(null))
                        .as("[zookeeper] lease: the unrenewed holder's lock ended with its lease")
                        .isEqualTo(LossReason.LEASE_EXPIRED);
                assertThat(granted.fencingToken())
                        .as("[zookeeper] lease: the waiter holds with a later token")
                        .isGreaterThan(h.fencingToken());
            }
        }
    }

    @Test
    void extendingToAShorterLeaseFreesTheLockAtTheNewDeadline() throws Exception {
        try (LockClient locks = LockClient.open(uri("?lease=10s"))) {
            LockHandle h = locks.lock("shortened").withAutoRenew(false).acquire(Duration.ZERO);
            String lockPath = LockPaths.lock("shortened");
            h.extend(Duration.ofMillis(500));
            // the old lease would keep the node for 10 s
            await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(admin.getChildren().forPath(lockPath))
                            .as(
                                    "[zookeeper] extend: a lease extended to 500 ms frees the lock then, not at the old 10 s")
                            .isEmpty());
            assertThat(h.isHeld())
                    .as("[zookeeper] extend: the handle counts the lock lost before the server frees it")
                    .isFalse();
        }
    }

    @Test
    void oneRenewalCallPerTickForAllHeldLocks() throws Exception {
        try (LockClient locks = LockClient.open(uri("?lease=1500ms"))) {
            List<LockHandle> held = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                held.add(locks.lock("batch-" + i).acquire(Duration.ZERO));
            }
            long before = packetsReceived();
            await().during(Duration.ofMillis(1600))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> true);
            long packets = packetsReceived() - before;
            assertThat(held).allMatch(LockHandle::isHeld);
            // ~3 ticks of one multi each, plus pings of the client and the admin; 200 per tick if per lock
            assertThat(packets).as("packets in ~3 renewal ticks of 200 locks").isLessThan(40);
        }
    }

    @Test
    void leasesLongerThanTheSessionAreRejected() {
        assertThatThrownBy(() -> LockClient.open(uri("?lease=5s&session-timeout=2s")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("5s");
        try (LockClient locks = LockClient.open(uri("?lease=2s"))) {
            assertThatThrownBy(() -> locks.lock("long").withLease(Duration.ofSeconds(3)))
                    .isInstanceOf(LockConfigurationException.class);
            locks.lock("short")
                    .withLease(Duration.ofMillis(500))
                    .acquire(Duration.ZERO)
                    .close();
        }
    }

    @Test
    void anAliasSeveralServersAndAChrootWork() throws Exception {
        admin.create().orSetData().forPath("/app-chroot");
        try (LockClient locks = LockClient.open("zk://" + hostPort + "," + hostPort + "/app-chroot")) {
            try (LockHandle h = locks.lock("chrooted").acquire(Duration.ZERO)) {
                assertThat(admin.getChildren().forPath("/app-chroot" + LockPaths.lock("chrooted")))
                        .hasSize(1);
                assertThat(h.isHeld()).isTrue();
            }
        }
    }

    @Test
    void digestCredentialsPutAclsOnNodesAndWrongOnesAreAClearError() throws Exception {
        admin.create().orSetData().forPath("/secured");
        String good = "zookeeper://locker:s3cret-pw@" + hostPort + "/secured";
        try (LockClient locks = LockClient.open(good)) {
            try (LockHandle held = locks.lock("acl").acquire(Duration.ZERO);
                    CuratorFramework locker = CuratorFrameworkFactory.builder()
                            .connectString(hostPort)
                            .retryPolicy(new RetryOneTime(100))
                            .authorization("digest", "locker:s3cret-pw".getBytes(StandardCharsets.UTF_8))
                            .build()) {
                locker.start();
                assertThatThrownBy(() -> admin.getChildren().forPath("/secured" + LockPaths.lock("acl")))
                        .as("a client without the credentials may not even list the queue")
                        .isInstanceOf(KeeperException.NoAuthException.class);
                List<ACL> acl = locker.getACL().forPath("/secured" + LockPaths.lock("acl"));
                assertThat(acl).hasSize(1);
                assertThat(acl.get(0).getId().getScheme()).isEqualTo("digest");
                assertThat(acl.get(0).getId().getId()).startsWith("locker:");
                assertThat(acl.get(0).getPerms()).isEqualTo(ZooDefs.Perms.ALL);
            }
        }
        String wrong = "zookeeper://locker:wrong-pw@" + hostPort + "/secured";
        assertThatThrownBy(() -> LockClient.open(wrong))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("authentication to zookeeper://locker:****@" + hostPort);
    }

    @Test
    void aChrootThatDoesNotExistOrIsMalformedIsAClearError() {
        assertThatThrownBy(() -> LockClient.open(uri("/no-such-chroot")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("/no-such-chroot does not exist");
        assertThatThrownBy(() -> LockClient.open(uri("/a//b")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("malformed chroot");
    }

    @Test
    void serversThatAreDownAreAClearErrorWithinTheConnectionTimeout() throws IOException {
        try (RefusingPort down = new RefusingPort()) { // refused at once, and no server started meanwhile can take it
            int port = down.port();
            long start = System.nanoTime();
            assertThatThrownBy(() ->
                            LockClient.open("zookeeper://u:pw-secret@127.0.0.1:" + port + "?connection-timeout=2s"))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("127.0.0.1:" + port)
                    .hasMessageContaining("within 2000 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
        }
    }

    @Test
    void aServerThatAcceptsButNeverAnswersFailsWithinTheConnectionTimeoutItNames() throws Exception {
        // the kernel completes the TCP handshake for the listening socket; nothing ever reads or answers
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            String uri = "zookeeper://127.0.0.1:" + silent.getLocalPort();
            long start = System.nanoTime();
            assertThatThrownBy(() -> LockClient.open(uri))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("within 5000 ms");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took)
                    .as(
                            "open against a server that never answers, with the default 5 s connection timeout"
                                    + " and a 30 s session: it must give up near the timeout its message names, not the session's")
                    .isLessThan(Duration.ofSeconds(15));
        }
    }

    @Test
    void malformedUrisAndOptionsAreRejected() {
        assertThatThrownBy(() -> LockClient.open("zookeeper://:pw-secret@127.0.0.1:notaport"))
                .isInstanceOf(LockConfigurationException.class)
                .satisfies(e ->
                        assertThat(e.getMessage()).doesNotContain("pw-secret").contains("port"));
        assertThatThrownBy(() -> LockClient.open(uri("?session-timeout=soon")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'session-timeout'");
        assertThatThrownBy(() -> LockClient.open(uri("?acl=creator")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("credentials");
        assertThatThrownBy(() -> LockClient.open(uri("?sesion-timeout=1s")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'sesion-timeout'");
        assertThatThrownBy(() -> LockClient.open(uri("/app#x")))
                .as("[zookeeper] uri: a fragment is an error, not silently dropped from the chroot")
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("fragment");
        assertThatThrownBy(() -> LockClient.open("zookeeper://u:pw-secret@" + hostPort + "?user=v"))
                .as("[zookeeper] uri: credentials are given once, and the password is never shown")
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("give them once")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pw-secret"));
    }

    @Test
    void anExistingCuratorClientStaysOpen() throws Exception {
        CuratorFramework mine = ZooKeeperSubject.admin(hostPort);
        try {
            try (LockClient locks = ZooKeeperLocks.open(
                    mine, LockOptions.builder().lease(Duration.ofSeconds(20)).build())) {
                assertThat(locks.backend()).contains("existing client");
                locks.lock("existing").acquire(Duration.ZERO).close();
            }
            assertThat(mine.checkExists().forPath("/")).isNotNull();
        } finally {
            mine.close();
        }
    }

    @Test
    void aCreateAnsweredWithoutItsStatGetsItsTokenReadFromTheNode() throws Exception {
        // what Curator answers for a create it retried and found again by its protection
        NodeOps ops = new NodeOps(admin, "zookeeper://" + hostPort);
        String path = admin.create()
                .creatingParentsIfNeeded()
                .withMode(org.apache.zookeeper.CreateMode.EPHEMERAL)
                .forPath("/token-read/node");
        long czxid = admin.checkExists().forPath(path).getCzxid();
        assertThat(ops.withToken(new NodeOps.LockNode("/token-read", path, 0, 0), "token-read")
                        .czxid())
                .isEqualTo(czxid);
        admin.delete().forPath(path);
        assertThatThrownBy(() -> ops.withToken(new NodeOps.LockNode("/token-read", path, 0, 0), "token-read"))
                .isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'token-read'");
        admin.delete().forPath("/token-read");
    }

    private static String uri(String rest) {
        return "zookeeper://" + hostPort + rest;
    }

    /** ZooKeeper's own count of requests received, from the {@code mntr} four-letter word. */
    private static long packetsReceived() throws IOException {
        try (Socket s = new Socket(server.host(), server.port())) {
            OutputStream out = s.getOutputStream();
            out.write("mntr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            for (String line : text.split("\n")) {
                if (line.startsWith("zk_packets_received")) {
                    return Long.parseLong(line.split("\\s+")[1].trim());
                }
            }
            throw new IllegalStateException("no zk_packets_received in mntr: " + text);
        }
    }
}
