package io.locksmith.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LockStatus;
import io.locksmith.testing.RefusingPort;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the kit cannot see: the key layout, the cost of renewal, deployments and the errors users meet. */
class EtcdBackendTest {

    private static final Pattern STARTED = Pattern.compile(
            "grpc_server_started_total\\{grpc_method=\"(\\w+)\",grpc_service=\"[^\"]+\",grpc_type=\"[^\"]+\"} (\\d+)");

    private static TestServer server;
    private static Client admin;

    @BeforeAll
    static void connect() {
        server = TestServers.etcd();
        admin = Client.builder()
                .endpoints("http://" + server.host() + ":" + server.port())
                .build();
    }

    @AfterAll
    static void disconnect() {
        admin.close();
    }

    @Test
    void escapedKeysAreDistinctForDistinctNamesAndNeverContainASlash() {
        List<String> names = List.of(
                "a", "A", "a/b", "a%2Fb", "a b", "a\tb", "東京", "😀", "..", "a:b", "%", "%25", "a.b", "😀".repeat(1024));
        Set<String> escaped = new HashSet<>();
        for (String n : names) {
            String e = EtcdKeys.escape(n);
            assertThat(e).doesNotContain("/");
            escaped.add(e);
        }
        assertThat(escaped).hasSameSizeAs(names);
        EtcdKeys keys = new EtcdKeys("apps");
        EtcdKeys nested = new EtcdKeys("apps/billing");
        assertThat(nested.own("x", "o").toString())
                .doesNotStartWith(keys.lockPrefix("billing").toString());
        assertThatThrownBy(() -> new EtcdKeys("a:b")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anOwnKeyReadsBackAsItsLockKeyAndOwnerAndOnlyUnderItsOwnNamespace() {
        EtcdKeys keys = new EtcdKeys("apps");
        for (String name : List.of("a", "a/b", "a%2Fb", "東京", "😀", "a:b", "%", "prefix:name")) {
            assertThat(keys.parse(keys.own(name, "owner/1")))
                    .as("[etcd] the own key of '%s' reads back", name)
                    .hasValue(new EtcdKeys.Own(name, "owner/1"));
        }
        assertThat(keys.parse(new EtcdKeys("apps/billing").own("x", "o")))
                .as("[etcd] a nested namespace's key is not this namespace's")
                .isEmpty();
        assertThat(keys.parse(EtcdKeys.bytes("apps/:bad%zz/o")))
                .as("[etcd] a key no client wrote")
                .isEmpty();
    }

    @Test
    void statusNamesTheOldestKeysOwnerAndTokenNotAWaitersAndItsLeasesTimeToLive() throws Exception {
        String uri = server.uri() + "?namespace=status-test";
        try (LockClient holder = LockClient.open(uri + "&lease=20s");
                LockClient waiter = LockClient.open(uri + "&lease=20s");
                LockClient operator = LockClient.open(uri)) {
            assertThat(operator.lock("status").status().state())
                    .as("etcd: a name never taken is free")
                    .isEqualTo(LockStatus.State.FREE);
            LockHandle first = holder.lock("status").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> next = waiter.lock("status").acquireAsync(Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> admin.getKVClient()
                                    .get(
                                            bytes("status-test/:status/"),
                                            GetOption.builder()
                                                    .isPrefix(true)
                                                    .withCountOnly(true)
                                                    .build())
                                    .get(5, TimeUnit.SECONDS)
                                    .getCount()
                            == 2);
            LockStatus status = operator.lock("status").status();
            assertThat(status.state())
                    .as("etcd: a held lock's status, read by another client")
                    .isEqualTo(LockStatus.State.HELD);
            assertThat(status.fencingToken())
                    .as("etcd: the holder's token, not the queued waiter's")
                    .hasValue(first.fencingToken());
            assertThat(status.owner()).as("etcd: the holder's owner id").isPresent();
            assertThat(status.remainingLease())
                    .as("etcd: the time to live of the holder's 20 s lease")
                    .hasValueSatisfying(
                            left -> assertThat(left).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(20)));
            first.close();
            try (LockHandle second = next.get(30, TimeUnit.SECONDS)) {
                assertThat(operator.lock("status").status().fencingToken())
                        .as("etcd: the next holder's token")
                        .hasValue(second.fencingToken());
            }
            assertThat(operator.lock("status").status().state())
                    .as("etcd: a released lock is free")
                    .isEqualTo(LockStatus.State.FREE);
        }
    }

    @Test
    void aGrantIsAKeyOnTheClientsLeaseAndItsCreateRevisionIsTheToken() throws Exception {
        try (LockClient locks = LockClient.open(server.uri() + "?lease=5s&namespace=layout-test")) {
            LockHandle a = locks.lock("layout-a").acquire(Duration.ZERO);
            LockHandle b = locks.lock("layout-b").acquire(Duration.ZERO);
            KeyValue ka = only("layout-test/:layout-a/");
            KeyValue kb = only("layout-test/:layout-b/");
            assertThat(ka.getCreateRevision()).isEqualTo(a.fencingToken());
            assertThat(kb.getCreateRevision()).isEqualTo(b.fencingToken());
            assertThat(ka.getLease())
                    .as("one lease per client, not one per acquisition")
                    .isEqualTo(kb.getLease());
            a.close();
            assertThat(admin.getKVClient()
                            .get(
                                    bytes("layout-test/:layout-a/"),
                                    GetOption.builder().isPrefix(true).build())
                            .get(5, TimeUnit.SECONDS)
                            .getKvs())
                    .isEmpty();
            b.close();
        }
    }

    @Test
    void renewingTwoThousandLocksCostsTwoCallsPerTick() throws Exception {
        try (LockClient locks = LockClient.open(server.uri() + "?lease=3s")) {
            List<LockHandle> held = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                held.add(locks.lock("renew-many-" + i).acquire(Duration.ZERO));
            }
            // locks taken over more than half a renewal interval first renew in two groups; the
            // first tick that is due renews both, and from then on there is one tick a second
            await().pollDelay(Duration.ofMillis(2_000))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> true);
            long before = serverCalls();
            long start = System.nanoTime();
            await().pollDelay(Duration.ofMillis(3_100))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> true);
            long calls = serverCalls() - before;
            double ticks = (System.nanoTime() - start) / 1e9; // one tick a second (lease / 3)
            assertThat(held).allMatch(LockHandle::isHeld);
            assertThat(calls)
                    .as("server calls for %.1f s of renewing 2,000 locks", ticks)
                    .isLessThanOrEqualTo(Math.round(2 * (ticks + 2)));
            held.forEach(LockHandle::close);
        }
    }

    @Test
    void theLastWaiterIsGrantedOnItsPredecessorsDeletionWithoutReadingTheQueueAgain() throws Exception {
        String uri = server.uri() + "?lease=5s&namespace=handoff-test";
        try (LockClient a = LockClient.open(uri);
                LockClient b = LockClient.open(uri)) {
            int cycles = 10;
            long handoffRanges = 0;
            for (int i = 0; i < cycles; i++) {
                long watchers = serverMetric("etcd_debugging_mvcc_watcher_total");
                LockHandle held = a.lock("handoff").acquire(Duration.ZERO);
                CompletableFuture<LockHandle> next = b.lock("handoff").acquireAsync(Duration.ofSeconds(30));
                // the waiter has looked below its key once it watches its predecessor
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> serverMetric("etcd_debugging_mvcc_watcher_total") == watchers + 1);
                long before = serverMetric("etcd_debugging_mvcc_range_total");
                held.close();
                LockHandle granted = next.get(10, TimeUnit.SECONDS);
                handoffRanges += serverMetric("etcd_debugging_mvcc_range_total") - before;
                granted.close();
            }
            // counted by the server, a transaction's compare being a range too: the release's compare
            // (1) and the waiter confirming its own key (1); reading the queue again would add 1 more
            assertThat(handoffRanges / (double) cycles)
                    .as("[etcd] ranges per handoff to the last waiter (release and grant)")
                    .isLessThanOrEqualTo(2.0);
        }
    }

    @Test
    void aServerThatIsDownIsAClearErrorWithinTheTimeout() throws IOException {
        try (RefusingPort down = new RefusingPort()) { // refused at once, and no server started meanwhile can take it
            int port = down.port();
            long start = System.nanoTime();
            String uri = "etcd://root:pw-secret@127.0.0.1:" + port + "?timeout=2s";
            assertThatThrownBy(() -> LockClient.open(uri))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("127.0.0.1:" + port)
                    .satisfies(e -> assertThat(e.getMessage())
                            .as("etcd at a closed port: the message says why, not the null of a message-less cause")
                            .doesNotContain("null")
                            .containsAnyOf("refused", "no answer", "UNAVAILABLE"));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
        }
    }

    @Test
    void tlsAgainstAPlainServerAndMissingTlsFilesAreClearErrors() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> LockClient.open("etcds://127.0.0.1:" + server.port() + "?timeout=2s"))
                .isInstanceOf(io.locksmith.LockException.class)
                .hasMessageContaining("127.0.0.1:" + server.port());
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
        assertThatThrownBy(() -> LockClient.open("etcds://127.0.0.1:" + server.port() + "?ca-file=/nonexistent/ca.pem"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'ca-file'");
        assertThatThrownBy(() -> LockClient.open(server.uri() + "?ca-file=/etc/hostname"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("etcds://");
    }

    @Test
    void wrongCredentialsAreAClearErrorAndRightOnesWork() throws Exception {
        String endpoint = "http://" + server.host() + ":" + server.port();
        ByteSequence root = ByteSequence.from("root", StandardCharsets.UTF_8);
        ByteSequence password = ByteSequence.from("r00t-s3cret", StandardCharsets.UTF_8);
        try (Client admin = Client.builder().endpoints(endpoint).build()) {
            admin.getAuthClient().userAdd(root, password).get(10, TimeUnit.SECONDS);
            admin.getAuthClient().userGrantRole(root, root).get(10, TimeUnit.SECONDS);
            admin.getAuthClient().authEnable().get(10, TimeUnit.SECONDS);
        }
        try {
            String wrong = "etcd://root:wr0ng-s3cret@" + server.host() + ":" + server.port() + "?timeout=3s";
            long start = System.nanoTime();
            assertThatThrownBy(() -> LockClient.open(wrong).lock("auth").tryAcquire())
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining(server.host() + ":" + server.port());
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
            try (LockClient locks = LockClient.open("etcd://root:r00t-s3cret@" + server.host() + ":" + server.port())) {
                assertThat(locks.backend()).doesNotContain("r00t-s3cret");
                try (LockHandle h = locks.lock("auth").acquire(Duration.ofSeconds(5))) {
                    assertThat(h.isHeld()).isTrue();
                }
            }
        } finally {
            // the server is shared with the other tests of this JVM: turn authentication off again
            try (Client admin = Client.builder()
                    .endpoints(endpoint)
                    .user(root)
                    .password(password)
                    .build()) {
                admin.getAuthClient().authDisable().get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void malformedUrisAndOptionsAreRejected() {
        assertThatThrownBy(() -> LockClient.open("etcd://u:pw-secret@127.0.0.1:notaport"))
                .isInstanceOf(LockConfigurationException.class)
                .satisfies(e ->
                        assertThat(e.getMessage()).doesNotContain("pw-secret").contains("etcd URI"));
        assertThatThrownBy(() -> LockClient.open(server.uri() + "?timeout=soon"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'timeout'");
        assertThatThrownBy(() -> LockClient.open(server.uri() + "?namespace=a:b"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'namespace'");
        assertThatThrownBy(() -> LockClient.open(server.uri() + "?lease=1s"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("2s");
        assertThatThrownBy(() -> LockClient.open(server.uri() + "?user=only"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("password");
    }

    @Test
    void anExistingJetcdClientStaysOpen() throws Exception {
        Client mine = Client.builder()
                .endpoints("http://" + server.host() + ":" + server.port())
                .build();
        try {
            try (LockClient locks = EtcdLocks.open(mine, LockOptions.defaults(), "existing")) {
                locks.lock("existing").acquire(Duration.ZERO).close();
            }
            assertThat(mine.getKVClient().get(bytes("x")).get(5, TimeUnit.SECONDS))
                    .isNotNull();
        } finally {
            mine.close();
        }
    }

    private static KeyValue only(String prefix) throws Exception {
        List<KeyValue> kvs = admin.getKVClient()
                .get(bytes(prefix), GetOption.builder().isPrefix(true).build())
                .get(5, TimeUnit.SECONDS)
                .getKvs();
        assertThat(kvs).hasSize(1);
        return kvs.get(0);
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    /** A counter or gauge without labels from the server's Prometheus metrics. */
    private static long serverMetric(String name) throws Exception {
        Matcher m = Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(metrics());
        assertThat(m.find()).as("etcd's metrics list %s", name).isTrue();
        return (long) Double.parseDouble(m.group(1));
    }

    private static String metrics() throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://" + server.host() + ":" + server.port() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /** Calls the server started, all methods but Watch, from its Prometheus metrics. */
    private static long serverCalls() throws Exception {
        String metrics = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://" + server.host() + ":" + server.port() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        long total = 0;
        Matcher m = STARTED.matcher(metrics);
        while (m.find()) {
            if (!m.group(1).equals("Watch")) {
                total += Long.parseLong(m.group(2));
            }
        }
        return total;
    }
}
