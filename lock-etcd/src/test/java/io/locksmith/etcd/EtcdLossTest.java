package io.locksmith.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LossReason;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Losses the backend finds through the core's table of held leases, and the keys it removes when
 * the core says a lease is lost: the client's etcd lease outlives its grants, so nothing else would.
 */
class EtcdLossTest {

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
    void aKeyDeletedBehindTheHoldersBackIsReportedLostByTheDeletionWatchBeforeAnyRenewal() throws Exception {
        // a 30 s lease renews after 10 s: a loss reported well before that came from the watch
        try (LockClient locks = LockClient.open(server.uri() + "?lease=30s&namespace=loss-deleted")) {
            LockHandle held = locks.lock("deleted").acquire(Duration.ZERO);
            admin.getKVClient()
                    .delete(
                            EtcdRestartTest.bytes("loss-deleted/:deleted/"),
                            DeleteOption.builder().isPrefix(true).build())
                    .get(10, TimeUnit.SECONDS);
            assertThat(held.whenLost().toCompletableFuture())
                    .as("[etcd] loss: a holder whose key was deleted is told by the deletion watch, not at its renewal")
                    .succeedsWithin(Duration.ofSeconds(5))
                    .isEqualTo(LossReason.OWNERSHIP_LOST);
            assertThat(held.isHeld())
                    .as("[etcd] loss: a holder whose key was deleted no longer holds")
                    .isFalse();
            held.close();
        }
    }

    @Test
    void aGrantNobodyRenewsHasItsKeyDeletedWhenItsLeasePassesSoTheNextWaiterGetsTheLock() throws Exception {
        String uri = server.uri() + "?lease=3s&namespace=loss-unrenewed";
        try (LockClient holder = LockClient.open(uri + "&renew=false");
                LockClient waiter = LockClient.open(uri)) {
            LockHandle held = holder.lock("unrenewed").acquire(Duration.ZERO);
            // the holder's client keeps its etcd lease alive for its other grants: only the core's
            // deadline, passed on to the backend, ends the key
            CompletableFuture<LockHandle> next = waiter.lock("unrenewed").acquireAsync(Duration.ofSeconds(30));
            assertThat(next)
                    .as("[etcd] the next waiter gets a lock whose unrenewed grant's lease passed (its key was deleted)")
                    .succeedsWithin(Duration.ofSeconds(30));
            LockHandle granted = next.join();
            assertThat(held.isHeld())
                    .as("[etcd] mutual exclusion: the unrenewed holder no longer holds when the" + " waiter is granted")
                    .isFalse();
            assertThat(held.whenLost().toCompletableFuture().getNow(null))
                    .as("[etcd] an unrenewed grant is lost when its lease passes")
                    .isEqualTo(LossReason.LEASE_EXPIRED);
            assertThat(granted.fencingToken())
                    .as("[etcd] the next holder's token is greater")
                    .isGreaterThan(held.fencingToken());
            granted.close();
            held.close();
            await("[etcd] no key is left behind")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> admin.getKVClient()
                                    .get(
                                            EtcdRestartTest.bytes("loss-unrenewed/:unrenewed/"),
                                            GetOption.builder()
                                                    .isPrefix(true)
                                                    .withCountOnly(true)
                                                    .build())
                                    .get(10, TimeUnit.SECONDS)
                                    .getCount()
                            == 0);
        }
    }
}
