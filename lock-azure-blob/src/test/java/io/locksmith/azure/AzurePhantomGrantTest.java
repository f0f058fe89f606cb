package io.locksmith.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An attempt whose answer was lost (a timeout after the service took the lease) holds the blob's
 * lease for an owner no handle knows. The core retries with the same request while the wait
 * lasts, and abandons it when the caller gives up: the retry must be granted (the lease id
 * derives from the owner) without counting the fence up a second time, and abandoning must
 * release the lease at once, never another owner's. The lost answer is played by ignoring the
 * first attempt's result.
 */
class AzurePhantomGrantTest {

    private static final String CONTAINER = "phantom";
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static TestServer server;

    @BeforeAll
    static void connect() {
        server = TestServers.azurite();
        Azurite.container(server, CONTAINER);
    }

    private static AzureBlobBackend backend() {
        return Azurite.backend(server, CONTAINER);
    }

    private static AcquireRequest request(String key, String owner) {
        return AcquireRequest.of(
                key,
                key,
                owner + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong()),
                LEASE);
    }

    private static String key(String what) {
        return what + "-" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    }

    @Test
    void aRetryOfAnAttemptWhoseAnswerWasLostIsGrantedWithTheSameToken() {
        try (AzureBlobBackend backend = backend();
                AzureBlobBackend other = backend()) {
            String key = key("retry");
            AcquireRequest waiter = request(key, "waiter");
            Grant lost = (Grant) backend.tryAcquire(waiter);
            AcquireResult retry = backend.tryAcquire(waiter);
            assertThat(retry)
                    .as("azure-blob, own grant: a retry of the same request is granted its own lease")
                    .isInstanceOf(Grant.class);
            assertThat(((Grant) retry).token())
                    .as(
                            "azure-blob, own grant: the retry gets the token the lost answer carried, the fence written once")
                    .isEqualTo(lost.token());
            // the same from a client that did not write the fence itself (nothing remembered, the metadata read)
            assertThat(((Grant) other.tryAcquire(waiter)).token())
                    .as("azure-blob, own grant: the token in the metadata is the retry's")
                    .isEqualTo(lost.token());
            assertThat(other.tryAcquire(request(key, "rival")))
                    .as("azure-blob, mutual exclusion: the retried grant still holds the lock")
                    .isInstanceOf(Held.class);
            backend.abandon(waiter);
        }
    }

    @Test
    void abandoningAnAttemptReleasesItsLeaseAtOnceAndNeverAnotherOwners() {
        try (AzureBlobBackend backend = backend()) {
            String key = key("abandon");
            AcquireRequest gaveUp = request(key, "gave-up");
            Grant phantom = (Grant) backend.tryAcquire(gaveUp);
            backend.abandon(gaveUp);
            AcquireResult next = backend.tryAcquire(request(key, "next"));
            assertThat(next)
                    .as("azure-blob, abandon: a lock taken by an attempt given up is takeable at once, not after"
                            + " its lease")
                    .isInstanceOf(Grant.class);
            assertThat(((Grant) next).token())
                    .as("azure-blob, fencing: the next grant's token is greater")
                    .isGreaterThan(phantom.token());
            backend.abandon(gaveUp);
            assertThat(backend.tryAcquire(request(key, "third")))
                    .as("azure-blob, ownership: abandoning again does not release another owner's lease")
                    .isInstanceOf(Held.class);
        }
    }
}
