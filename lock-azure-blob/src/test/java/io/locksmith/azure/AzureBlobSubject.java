package io.locksmith.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.SecretUri;
import io.locksmith.testing.ProxiedSubject;
import io.locksmith.testing.TestServer;
import java.time.Duration;
import java.util.Optional;

/**
 * Azurite as the kit sees it: each client talks through a proxy of its own, which the
 * connection hooks cut and the reply-delay hook slows; removing a lock's state breaks its lease
 * with an admin client and keeps the blob, so the fencing counter in its metadata stays.
 */
final class AzureBlobSubject extends ProxiedSubject {

    static final String CONTAINER = "tck";
    private static final String OPTIONS = "?container=" + CONTAINER + "&timeout=2s";

    private final BlobContainerClient admin;

    AzureBlobSubject(TestServer server) {
        super("azure-blob", server, address -> "azblob:" + Azurite.throughPort(server, port(address)) + OPTIONS);
        this.admin = Azurite.container(server, CONTAINER);
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder()
                .minimumLease(Duration.ofSeconds(15))
                .testLease(Duration.ofSeconds(15))
                .nativeWakeUp(false)
                .fifo(false)
                // leases are the service's; and Azurite 3.37 reads every lease back as expired after
                // a restart (docs/backends/azure-blob.md), which the real service does not
                .lacks(Fault.SKEW_WALL_CLOCK, Fault.RESTART_SERVER)
                .build();
    }

    /** The development account's key, in the connection string Azurite is opened with. */
    @Override
    public Optional<SecretUri> secretUri() {
        return Optional.of(new SecretUri(
                "azblob:" + server().uri() + OPTIONS,
                Azurite.accountKey(server()),
                "azblob:" + Azurite.throughPort(server(), port(unreachableAddress())) + OPTIONS));
    }

    @Override
    public void removeLockState(String key) {
        try {
            new BlobLeaseClientBuilder()
                    .blobClient(admin.getBlobClient(BlobNames.blob(key)))
                    .buildClient()
                    .breakLeaseWithResponse(0, null, Duration.ofSeconds(10), null);
        } catch (BlobStorageException e) {
            if (e.getStatusCode() != 409 && e.getStatusCode() != 404) {
                throw e; // 409: no lease to break, 404: no blob; either way no state is left
            }
        }
    }
}
