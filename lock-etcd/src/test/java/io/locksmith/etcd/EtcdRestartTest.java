package io.locksmith.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What no general rule states: the member restarting (with and without a compaction first) under
 * holders and waiters, and a client's lease revoked behind its back. A restart restarts the JVM's
 * shared etcd, which keeps its data directory.
 */
class EtcdRestartTest {

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
    void aRestartShorterThanTheLeaseLosesNeitherTheHolderNorTheWaiter() throws Exception {
        String uri = server.uri() + "?lease=20s&timeout=3s&namespace=restart-short";
        try (LockClient a = LockClient.open(uri);
                LockClient b = LockClient.open(uri)) {
            LockHandle held = a.lock("restart").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> waiter = b.lock("restart").acquireAsync(Duration.ofSeconds(90));
            awaitKeys("restart-short/:restart/", 2);

            server.restart();

            // the keep-alive stream failing while the member was down is not the 20 s lease ending
            assertThat(held.whenLost().toCompletableFuture())
                    .as("[etcd] a restart shorter than the lease: the holder is not reported lost")
                    .isNotDone();
            assertThat(held.isHeld())
                    .as("[etcd] a restart shorter than the lease: the holder still holds")
                    .isTrue();
            assertThat(waiter)
                    .as("[etcd] a restart shorter than the lease: the waiter still waits")
                    .isNotDone();
            assertThat(keys("restart-short/:restart/"))
                    .as("[etcd] a restart shorter than the lease: both keys stay")
                    .hasSize(2);

            long token = held.fencingToken();
            held.close();
            LockHandle next = waiter.get(30, TimeUnit.SECONDS);
            assertThat(next.fencingToken())
                    .as("[etcd] after a restart the waiter is granted a greater token")
                    .isGreaterThan(token);
            next.close();
        }
    }

    @Test
    void aWaiterWhoseKeyWasDeletedAfterACompactionAndARestartIsNeverGranted() throws Exception {
        String uri = server.uri() + "?lease=20s&timeout=3s&namespace=restart-compacted";
        String prefix = "restart-compacted/:compacted/";
        try (LockClient a = LockClient.open(uri);
                LockClient b = LockClient.open(uri);
                LockClient c = LockClient.open(uri)) {
            LockHandle held = a.lock("compacted").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> orphaned = b.lock("compacted").acquireAsync(Duration.ofSeconds(90));
            awaitKeys(prefix, 2);
            CompletableFuture<LockHandle> third = c.lock("compacted").acquireAsync(Duration.ofSeconds(90));
            awaitKeys(prefix, 3);
            // writes elsewhere, then a compaction past every revision the clients' watches started from
            long revision = 0;
            for (int i = 0; i < 3; i++) {
                revision = admin.getKVClient()
                        .put(bytes("elsewhere/" + i), bytes("x"))
                        .get(10, TimeUnit.SECONDS)
                        .getHeader()
                        .getRevision();
            }
            admin.getKVClient().compact(revision).get(10, TimeUnit.SECONDS);
            server.restart();

            // an operator deletes the first waiter's key (the core may queue it again, behind the third)
            ByteSequence waiterKey = keys(prefix).get(1).getKey();
            admin.getKVClient().delete(waiterKey).get(10, TimeUnit.SECONDS);
            held.close();
            LockHandle thirdHandle = third.get(30, TimeUnit.SECONDS);

            // a negative needs a window: before the fix the orphaned waiter was granted within milliseconds
            await("[etcd] mutual exclusion: a waiter whose key is gone must not be granted while another holds")
                    .during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !grantedWhileHeld(orphaned, thirdHandle));
            thirdHandle.close();
            orphaned.cancel(true);
        }
    }

    @Test
    void anAttemptOnALeaseTheServerNoLongerKnowsEndsItAndTheNextAttemptGetsANewOne() throws Exception {
        String uri = server.uri() + "?lease=20s&timeout=3s&namespace=revoked";
        try (LockClient client = LockClient.open(uri)) {
            LockHandle held = client.lock("revoked-held").acquire(Duration.ZERO);
            long lease = keys("revoked/:revoked-held/").get(0).getLease();
            admin.getLeaseClient().revoke(lease).get(10, TimeUnit.SECONDS); // an operator revokes it
            await("[etcd] loss: a holder whose lease was revoked is reported lost")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> held.whenLost().toCompletableFuture().isDone());
            // the first attempt may still be sent on the revoked lease; the one after it must not be
            try {
                client.lock("revoked-next").tryAcquire().ifPresent(LockHandle::close);
            } catch (io.locksmith.LockBackendException e) {
                assertThat(e).hasMessageContaining("lease not found");
            }
            assertThat(client.lock("revoked-next").tryAcquire())
                    .as("[etcd] after its lease was revoked, the client's next attempt gets a new lease and the lock")
                    .isPresent()
                    .get()
                    .satisfies(LockHandle::close);
            held.close();
        }
    }

    /** A grant handed out while another handle holds is two holders, even if its loss is detected later. */
    private static boolean grantedWhileHeld(CompletableFuture<LockHandle> waiter, LockHandle holder) {
        return holder.isHeld() && waiter.isDone() && !waiter.isCompletedExceptionally();
    }

    private static void awaitKeys(String prefix, int count) {
        await().atMost(Duration.ofSeconds(20)).until(() -> keys(prefix).size() == count);
    }

    static List<KeyValue> keys(String prefix) throws Exception {
        return admin.getKVClient()
                .get(
                        bytes(prefix),
                        GetOption.builder()
                                .isPrefix(true)
                                .withSortField(GetOption.SortTarget.CREATE)
                                .withSortOrder(GetOption.SortOrder.ASCEND)
                                .build())
                .get(10, TimeUnit.SECONDS)
                .getKvs();
    }

    static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }
}
