package io.locksmith.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.storage.blob.BlobContainerAsyncClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.LeaseStateType;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LockListener;
import io.locksmith.LockOptions;
import io.locksmith.LockStatus;
import io.locksmith.LossReason;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the kit cannot see: the blob layout, the cost of a grant, loss by a broken lease, addressing. */
class AzureBlobBackendTest {

    private static final String CONTAINER = "backend";
    private static TestServer server;
    private static BlobContainerClient admin;

    @BeforeAll
    static void connect() {
        server = TestServers.azurite();
        admin = Azurite.container(server, CONTAINER);
    }

    private static String uri(String options) {
        return "azblob:" + server.uri() + "?container=" + CONTAINER + (options.isEmpty() ? "" : "&" + options);
    }

    @Test
    void aGrantWritesTheCounterUnderTheLeaseAndTheBlobKeepsTheName() {
        String name = "layout/Ünïcode: ..*?\\ end.";
        try (LockClient locks = LockClient.open(uri("lease=20s"))) {
            LockHandle first = locks.lock(name).acquire(Duration.ZERO);
            BlobProperties p = admin.getBlobClient(BlobNames.blob(name)).getProperties();
            assertThat(BlobNames.blob(name)).matches("locksmith/[0-9a-f]{64}");
            assertThat(p.getLeaseState()).isEqualTo(LeaseStateType.LEASED);
            assertThat(BlobNames.decode(p.getMetadata().get(BlobNames.NAME))).isEqualTo(name);
            assertThat(BlobNames.fence(p.getMetadata())).isEqualTo(first.fencingToken());
            first.close();
            assertThat(admin.getBlobClient(BlobNames.blob(name)).getProperties().getLeaseState())
                    .isEqualTo(LeaseStateType.AVAILABLE);
            try (LockHandle second = locks.lock(name).acquire(Duration.ZERO)) {
                assertThat(second.fencingToken()).isEqualTo(first.fencingToken() + 1);
            }
        }
    }

    @Test
    void anAcquirePlusReleaseOnAnExistingBlobCostsThreeCalls() {
        AtomicInteger calls = new AtomicInteger();
        HttpPipelinePolicy counter = (HttpPipelineCallContext context, HttpPipelineNextPolicy next) -> {
            calls.incrementAndGet();
            return next.process();
        };
        BlobContainerAsyncClient container = new BlobContainerClientBuilder()
                .connectionString(server.uri())
                .containerName(CONTAINER)
                .addPolicy(counter)
                .buildAsyncClient();
        try (LockClient locks = AzureBlobLocks.open(
                container, LockOptions.builder().lease(Duration.ofSeconds(20)).build())) {
            locks.lock("cost").acquire(Duration.ZERO).close(); // creates the blob
            int before = calls.get();
            for (int i = 0; i < 10; i++) {
                locks.lock("cost").acquire(Duration.ZERO).close();
            }
            assertThat(calls.get() - before)
                    .as("calls for 10 acquire+release pairs")
                    .isEqualTo(30);
        }
    }

    @Test
    void aLeaseBrokenBehindTheHolderIsReportedLost() {
        try (LockClient locks = LockClient.open(uri("lease=15s"))) {
            LockHandle held = locks.lock("broken").acquire(Duration.ZERO);
            new BlobLeaseClientBuilder()
                    .blobClient(admin.getBlobClient(BlobNames.blob("broken")))
                    .buildClient()
                    .breakLeaseWithResponse(0, null, Duration.ofSeconds(10), null);
            await().atMost(Duration.ofSeconds(25)).until(() -> !held.isHeld());
            assertThat(held.whenLost().toCompletableFuture().join()).isEqualTo(LossReason.OWNERSHIP_LOST);
            try (LockHandle next = locks.lock("broken").acquire(Duration.ofSeconds(5))) {
                assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            }
        }
    }

    private static LockClient client(Duration lease, boolean autoRenew) {
        BlobContainerAsyncClient container = new BlobContainerClientBuilder()
                .connectionString(server.uri())
                .containerName(CONTAINER)
                .buildAsyncClient();
        return AzureBlobLocks.open(
                container,
                LockOptions.builder().lease(lease).autoRenew(autoRenew).build());
    }

    @Test
    void extendToALongerLeaseKeepsOthersOutUntilTheNewDeadline() {
        try (LockClient holder = client(Duration.ofSeconds(15), false);
                LockClient rival = client(Duration.ofSeconds(15), true)) {
            LockHandle held = holder.lock("extend-longer").acquire(Duration.ZERO);
            held.extend(Duration.ofSeconds(60));
            // past the first lease (15 s) with a margin, well inside the new one (60 s)
            await().pollDelay(Duration.ofSeconds(20))
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> true);
            assertThat(held.isHeld())
                    .as("azure-blob, extend: the handle counts the 60 s lease")
                    .isTrue();
            Optional<LockHandle> stolen = rival.lock("extend-longer").tryAcquire();
            stolen.ifPresent(LockHandle::close);
            assertThat(stolen)
                    .as("azure-blob, extend to a longer lease: no one else holds the lock before the new"
                            + " deadline the holder counts")
                    .isEmpty();
            held.close();
        }
    }

    @Test
    void extendToAShorterLeaseFreesTheLockAtTheNewDeadline() {
        try (LockClient holder = client(Duration.ofSeconds(60), false);
                LockClient rival = client(Duration.ofSeconds(15), true)) {
            LockHandle held = holder.lock("extend-shorter").acquire(Duration.ZERO);
            held.extend(Duration.ofSeconds(15));
            // the service frees it 15 s after the extend; 60 s after the grant if the extend was not honoured
            try (LockHandle next = rival.lock("extend-shorter").acquire(Duration.ofSeconds(40))) {
                assertThat(held.isHeld())
                        .as("azure-blob, extend to a shorter lease: the lock is free on the server"
                                + " no earlier than the holder's own deadline")
                        .isFalse();
                assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            }
        }
    }

    /**
     * A restart keeps the fencing counter (blob metadata), so tokens keep increasing. Leases are
     * not checked across a restart: Azurite reads every lease back from its saved state as expired
     * (see {@link AzureBlobSubject}), which the real service does not do.
     */
    @Test
    void tokensKeepIncreasingAcrossARestart() {
        try (LockClient locks = client(Duration.ofSeconds(15), true)) {
            LockHandle before = locks.lock("restart").acquire(Duration.ZERO);
            before.close();
            Azurite.restartKeepingState(server);
            try (LockHandle after = locks.lock("restart").acquire(Duration.ofSeconds(20))) {
                assertThat(after.fencingToken())
                        .as("azure-blob, restart: tokens keep increasing across a restart")
                        .isGreaterThan(before.fencingToken());
            }
        }
    }

    @Test
    void statusShowsTheHolderAndToken() {
        try (LockClient locks = LockClient.open(uri(""))) {
            assertThat(locks.lock("status").status().state()).isEqualTo(LockStatus.State.FREE);
            try (LockHandle h = locks.lock("status").acquire(Duration.ZERO)) {
                LockStatus s = locks.lock("status").status();
                assertThat(s.state()).isEqualTo(LockStatus.State.HELD);
                assertThat(s.fencingToken()).hasValue(h.fencingToken());
                assertThat(s.owner()).isPresent();
            }
            assertThat(locks.lock("status").status().state()).isEqualTo(LockStatus.State.FREE);
        }
    }

    @Test
    void leasesOutsideFifteenToSixtySecondsAreRejected() {
        assertThatThrownBy(() -> LockClient.open(uri("lease=10s")).lock("x").tryAcquire())
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("15s to 1m");
        try (LockClient locks = LockClient.open(uri(""))) {
            assertThatThrownBy(() ->
                            locks.lock("x").withLease(Duration.ofSeconds(61)).tryAcquire())
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("1m");
        }
        assertThat(LeaseTerm.seconds(Duration.ofMillis(15_001))).isEqualTo(16);
    }

    @Test
    void aTickRenewsInCallsOfAtMost128Leases() {
        int count = 200;
        List<LockListener.Renewal> calls = Collections.synchronizedList(new ArrayList<>());
        try (LockClient locks = LockClient.open(uri("lease=15s&renew-interval=2s"))) {
            locks.addListener(new LockListener() {
                @Override
                public void renewed(Renewal event) {
                    calls.add(event);
                }
            });
            List<LockHandle> held = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                held.add(locks.lock("batched-" + i).acquire(Duration.ofSeconds(10)));
            }
            int from = calls.size();
            // the core's calls since every lock was taken: together they renew all of them
            await().atMost(Duration.ofSeconds(60)).until(() -> sum(calls.subList(from, calls.size())) >= count);
            List<LockListener.Renewal> after = List.copyOf(calls.subList(from, calls.size()));
            assertThat(after)
                    .as("one request per lease, so calls of at most %d leases", LeaseRenewal.BATCH_LIMIT)
                    .allMatch(r -> r.leases() <= LeaseRenewal.BATCH_LIMIT)
                    .allMatch(r -> r.renewed() == r.leases());
            assertThat(held).allMatch(LockHandle::isHeld);
            held.forEach(LockHandle::close);
        }
    }

    private static int sum(List<LockListener.Renewal> calls) {
        synchronized (calls) {
            return calls.stream().mapToInt(LockListener.Renewal::leases).sum();
        }
    }

    @Test
    void anExistingContainerClientWorksAndTheContainerIsCreatedIfMissing() {
        BlobContainerClient mine = Azurite.admin(server).getBlobContainerClient("created-by-locks");
        try (LockClient locks = AzureBlobLocks.open(mine, LockOptions.defaults())) {
            assertThat(mine.exists()).isTrue();
            try (LockHandle h = locks.lock("existing").acquire(Duration.ZERO)) {
                assertThat(h.isHeld()).isTrue();
            }
        }
    }

    @Test
    void theCustomEndpointFormWithAnAccountKeyWorks() {
        String uri = "azblob://127.0.0.1:" + server.port() + "/devstoreaccount1/" + CONTAINER;
        try (LockClient locks = LockClient.open(uri, java.util.Map.of("account-key", Azurite.accountKey(server)))) {
            assertThat(locks.backend())
                    .isEqualTo("azblob://127.0.0.1:" + server.port() + "/devstoreaccount1/" + CONTAINER);
            locks.lock("keyed").acquire(Duration.ZERO).close();
        }
    }
}
