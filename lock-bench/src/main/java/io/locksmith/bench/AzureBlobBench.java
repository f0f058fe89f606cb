package io.locksmith.bench;

import com.azure.core.http.HttpClient;
import com.azure.core.util.BinaryData;
import com.azure.core.util.HttpClientOptions;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.specialized.BlobLeaseClient;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.locksmith.LockClient;
import io.locksmith.testing.TestServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Azure Blob Storage on Azurite; its floor is the least a blob-lease lock can do with the same
 * SDK and HTTP client: acquire a lease and release it, on a blob that already exists — two calls,
 * where a Locksmith grant adds the fencing counter's write under the lease (three).
 */
final class AzureBlobBench implements BackendBench {

    private static final String CONTAINER = "bench";

    private final TestServer server;
    private final BlobContainerClient container;

    AzureBlobBench(TestServer server) {
        this.server = server;
        this.container = container();
        container.createIfNotExists();
    }

    /** A container client with an HTTP client (and connection pool) of its own. */
    private BlobContainerClient container() {
        Duration timeout = Duration.ofSeconds(5);
        return new BlobServiceClientBuilder()
                .connectionString(server.uri())
                .httpClient(HttpClient.createDefault(new HttpClientOptions()
                        .setConnectTimeout(timeout)
                        .setResponseTimeout(timeout)
                        .setReadTimeout(timeout)
                        .setWriteTimeout(timeout)))
                .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, timeout, null, null, null))
                .buildClient()
                .getBlobContainerClient(CONTAINER);
    }

    @Override
    public String name() {
        return "azure-blob";
    }

    @Override
    public String version() {
        return "Azurite " + server.version();
    }

    @Override
    public LockClient client() {
        return LockClient.open("azblob:" + server.uri() + "?container=" + CONTAINER + "&lease=15s");
    }

    /**
     * Left out: holding 10,000 leases means 10,000 renewal requests every 5 s (Azure has no batch
     * renewal), which measures Azurite's request rate rather than the client.
     */
    @Override
    public String uri() {
        return null;
    }

    /** The leader's blob lease is Azure's shortest, 15 s: a failover takes about that long. */
    @Override
    public String failoverUri() {
        return "azblob:" + server.uri() + "?container=" + CONTAINER;
    }

    @Override
    public Duration failoverLease() {
        return Duration.ofSeconds(15);
    }

    @Override
    public Floor floor() {
        Map<String, BlobLeaseClient> leases = new HashMap<>();
        return new Floor() {
            @Override
            public void pair(String key) {
                BlobLeaseClient lease = leases.computeIfAbsent(key, k -> {
                    var blob = container.getBlobClient("floor/" + k);
                    if (!blob.exists()) {
                        blob.upload(BinaryData.fromBytes(new byte[0]), true);
                    }
                    return new BlobLeaseClientBuilder().blobClient(blob).buildClient();
                });
                lease.acquireLease(15);
                lease.releaseLease();
            }

            @Override
            public void close() {}
        };
    }

    /**
     * The pair floor's acquire-lease and release-lease, with an HTTP client and a lease id of its
     * own; a lease another connection holds answers 409 LeaseAlreadyPresent.
     */
    @Override
    public FloorConnection floorConnection() {
        BlobContainerClient own = container();
        Map<String, BlobLeaseClient> leases = new HashMap<>();
        return new FloorConnection() {
            @Override
            public boolean tryAcquire(String key) {
                BlobLeaseClient lease = leases.computeIfAbsent(key, k -> {
                    var blob = own.getBlobClient("contended-floor/" + k);
                    if (!blob.exists()) {
                        try {
                            blob.upload(BinaryData.fromBytes(new byte[0]), false);
                        } catch (BlobStorageException e) {
                            // another connection made the blob first (and may hold its lease)
                            if (!BlobErrorCode.BLOB_ALREADY_EXISTS.equals(e.getErrorCode())
                                    && !BlobErrorCode.LEASE_ID_MISSING.equals(e.getErrorCode())) {
                                throw e;
                            }
                        }
                    }
                    return new BlobLeaseClientBuilder().blobClient(blob).buildClient();
                });
                try {
                    lease.acquireLease(15);
                    return true;
                } catch (BlobStorageException e) {
                    if (BlobErrorCode.LEASE_ALREADY_PRESENT.equals(e.getErrorCode())) {
                        return false;
                    }
                    throw e;
                }
            }

            @Override
            public void release(String key) {
                leases.get(key).releaseLease();
            }

            @Override
            public void close() {}
        };
    }

    /** One small authenticated call: the container's properties. */
    @Override
    public Runnable roundTrip() {
        return container::getProperties;
    }

    @Override
    public void close() {}
}
