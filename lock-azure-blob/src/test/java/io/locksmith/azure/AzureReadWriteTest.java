package io.locksmith.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.LeaseStateType;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the kit cannot see of read-write locks on Azure: the blobs a key leaves behind, a reader
 * and a writer that race, and what a retried attempt and the inspector are told. Attempts go to
 * the backend itself, so that a test decides when each one runs.
 */
class AzureReadWriteTest {

    private static final Logger LOG = LoggerFactory.getLogger(AzureReadWriteTest.class);
    private static final String CONTAINER = "readwrite";
    private static final Duration LEASE = Duration.ofSeconds(15);
    private static TestServer server;
    private static BlobContainerClient admin;
    private static ExecutorService pool;

    @BeforeAll
    static void connect() {
        server = TestServers.azurite();
        admin = Azurite.container(server, CONTAINER);
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    private static AzureBlobBackend backend() {
        return Azurite.backend(server, CONTAINER);
    }

    private static AcquireRequest request(String key, String owner, Hold hold) {
        return AcquireRequest.of(
                        key,
                        key,
                        owner + "-"
                                + Long.toHexString(ThreadLocalRandom.current().nextLong()),
                        LEASE)
                .withHold(hold);
    }

    private static String key(String what) {
        return what + "-" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    }

    private static boolean exists(String blob) {
        return admin.getBlobClient(blob).exists();
    }

    @Test
    void aReadersBlobIsDeletedOnRelease() {
        try (AzureBlobBackend backend = backend()) {
            String key = key("release");
            AcquireRequest reader = request(key, "reader", Hold.READ);
            Grant grant = (Grant) backend.tryAcquire(reader);
            String blob = ReadWriteBlobs.reader(key, reader.owner());
            assertThat(blob)
                    .as("azure-blob, read-write layout: a reader's blob is under the key's own prefix")
                    .matches("locksmith-rw/[0-9a-f]{64}/reader-[0-9a-f-]{36}");
            assertThat(admin.getBlobClient(blob).getProperties().getLeaseState())
                    .as("azure-blob, read-write layout: a granted reader leases its blob")
                    .isEqualTo(LeaseStateType.LEASED);
            assertThat(backend.release(HeldLease.of(reader, grant)))
                    .as("azure-blob, release: a reader's release succeeds")
                    .isTrue();
            assertThat(exists(blob))
                    .as("azure-blob, release: a released reader's blob is deleted, so reader blobs do not pile up")
                    .isFalse();
        }
    }

    @Test
    void aDeadReadersExpiredBlobIsDeletedByTheNextAttempt() {
        try (AzureBlobBackend backend = backend()) {
            String key = key("dead");
            AcquireRequest dead = request(key, "dead", Hold.READ);
            backend.tryAcquire(dead); // never renewed nor released: a reader that crashed
            String blob = ReadWriteBlobs.reader(key, dead.owner());
            await("azure-blob: the dead reader's lease to run out")
                    .atMost(LEASE.multipliedBy(3))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> admin.getBlobClient(blob).getProperties().getLeaseState() == LeaseStateType.EXPIRED);
            AcquireRequest writer = request(key, "writer", Hold.WRITE);
            assertThat(backend.tryAcquire(writer))
                    .as("azure-blob, dead reader: a writer is granted once the reader's lease ran out")
                    .isInstanceOf(Grant.class);
            assertThat(exists(blob))
                    .as("azure-blob, dead reader: the attempt after it deleted the expired reader blob")
                    .isFalse();
            backend.abandon(writer);
        }
    }

    @Test
    void aReaderAndAWriterStartedTogetherAreNeverBothGranted() throws Exception {
        try (AzureBlobBackend readers = backend();
                AzureBlobBackend writers = backend()) {
            int rounds = 40;
            int readerWon = 0;
            int writerWon = 0;
            for (int round = 0; round < rounds; round++) {
                String key = key("race");
                // a reader granted first leaves the key as readers keep it; so does a writer's mark
                AcquireRequest reader = request(key, "reader", Hold.READ);
                AcquireRequest writer = request(key, "writer", Hold.WRITE);
                CyclicBarrier start = new CyclicBarrier(2);
                // the reader makes one call more before its lease than the writer: a head start of
                // 0 to 40 ms for the writer's first call spreads the rounds over every interleaving
                long headStart = TimeUnit.MILLISECONDS.toNanos(
                        ThreadLocalRandom.current().nextInt(41));
                CompletableFuture<AcquireResult> read = CompletableFuture.supplyAsync(
                        () -> {
                            together(start);
                            return readers.tryAcquire(reader);
                        },
                        pool);
                CompletableFuture<AcquireResult> write = CompletableFuture.supplyAsync(
                        () -> {
                            together(start);
                            LockSupport.parkNanos(headStart);
                            return writers.tryAcquire(writer);
                        },
                        pool);
                boolean readGranted = read.get(60, TimeUnit.SECONDS) instanceof Grant;
                boolean writeGranted = write.get(60, TimeUnit.SECONDS) instanceof Grant;
                assertThat(readGranted && writeGranted)
                        .as("azure-blob, read-write race: round " + round + " granted both the reader and the writer")
                        .isFalse();
                readerWon += readGranted ? 1 : 0;
                writerWon += writeGranted ? 1 : 0;
                readers.abandon(reader);
                writers.abandon(writer);
            }
            // the shape of the race (rounds with neither granted are those where each saw the other)
            LOG.info(
                    "read-write race: reader granted {}, writer {}, neither {} of {} rounds",
                    readerWon,
                    writerWon,
                    rounds - readerWon - writerWon,
                    rounds);
        }
    }

    private static void together(CyclicBarrier start) {
        try {
            start.await(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aWritersRetryAfterItsLeaseEndedIsNotGrantedBesideAReader() {
        try (AzureBlobBackend backend = backend()) {
            String key = key("lapsed");
            AcquireRequest writer = request(key, "writer", Hold.WRITE);
            Grant first = (Grant) backend.tryAcquire(writer);
            // the writer's lease ends (broken here, as an expiry after a long pause would end it)
            new BlobLeaseClientBuilder()
                    .blobClient(admin.getBlobClient(ReadWriteBlobs.writer(key)))
                    .buildClient()
                    .breakLeaseWithResponse(0, null, Duration.ofSeconds(10), null);
            AcquireRequest reader = request(key, "reader", Hold.READ);
            Grant read = (Grant) backend.tryAcquire(reader);
            assertThat(backend.tryAcquire(writer))
                    .as("azure-blob, own grant: a writer's retry whose lease ended while a reader came in is not"
                            + " granted beside it (its grant had token " + first.token() + ", the reader's "
                            + read.token() + ")")
                    .isNotInstanceOf(Grant.class);
            assertThat(backend.release(HeldLease.of(reader, read))).isTrue();
            Grant again = (Grant) backend.tryAcquire(writer);
            assertThat(again.token())
                    .as("azure-blob, fencing: the writer granted after the reader gets a token above the reader's")
                    .isGreaterThan(read.token());
            assertThat(backend.release(HeldLease.of(writer, again))).isTrue();
        }
    }

    @Test
    void retriesGetTheirGrantAndTheInspectorShowsHoldersNotAWaitingWriter() {
        try (AzureBlobBackend backend = backend()) {
            String key = key("retry");
            AcquireRequest reader = request(key, "reader", Hold.READ);
            Grant first = (Grant) backend.tryAcquire(reader);
            assertThat(((Grant) backend.tryAcquire(reader)).token())
                    .as("azure-blob, own grant: a reader's retry whose answer was lost gets the same token")
                    .isEqualTo(first.token());
            AcquireRequest writer = request(key, "writer", Hold.WRITE);
            assertThat(backend.tryAcquire(writer))
                    .as("azure-blob, read-write: a writer is not granted while a reader holds")
                    .isNotInstanceOf(Grant.class);
            LockInspector inspector = backend.inspector().orElseThrow();
            List<LockInspector.Holder> holders =
                    inspector.holders(key, Hold.Kind.WRITE).orElseThrow();
            assertThat(holders)
                    .as("azure-blob, inspector: the reader holds; the waiting writer is not a holder")
                    .extracting(LockInspector.Holder::kind)
                    .containsExactly(Hold.Kind.READ);
            assertThat(holders.get(0).state().owner())
                    .as("azure-blob, inspector: the reader's owner")
                    .isEqualTo(reader.owner());
            assertThat(backend.release(HeldLease.of(reader, first))).isTrue();
            Grant granted = (Grant) backend.tryAcquire(writer);
            assertThat(granted.token())
                    .as("azure-blob, fencing: the writer after the reader")
                    .isGreaterThan(first.token());
            assertThat(((Grant) backend.tryAcquire(writer)).token())
                    .as("azure-blob, own grant: a writer's retry whose answer was lost gets the same token")
                    .isEqualTo(granted.token());
            assertThat(inspector.holders(key, Hold.Kind.READ).orElseThrow())
                    .as("azure-blob, inspector: the writer holds")
                    .extracting(h ->
                            h.kind() + " " + h.state().owner() + " " + h.state().token())
                    .containsExactly("WRITE " + writer.owner() + " " + granted.token());
            assertThat(backend.release(HeldLease.of(writer, granted))).isTrue();
        }
    }
}
