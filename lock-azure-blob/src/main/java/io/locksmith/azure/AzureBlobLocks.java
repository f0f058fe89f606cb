package io.locksmith.azure;

import com.azure.storage.blob.BlobContainerAsyncClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import java.util.Objects;

/**
 * Lock clients over a container client the application already has, with its credentials and
 * HTTP pipeline. The container is created if it is missing and the credentials allow it. Every
 * storage call is bounded by 5 s, whatever the client's own retry policy.
 *
 * <pre>{@code
 * BlobContainerClient container = new BlobContainerClientBuilder()
 *         .endpoint("https://acct.blob.core.windows.net/locks")
 *         .credential(new DefaultAzureCredentialBuilder().build())
 *         .buildClient();
 * try (LockClient locks = AzureBlobLocks.open(container, LockOptions.defaults())) { ... }
 * }</pre>
 */
public final class AzureBlobLocks {

    private AzureBlobLocks() {}

    /**
     * @param container a container client; its pipeline (credentials, policies, HTTP client) is reused
     * @param options the lock options; leases must be 15 s to 60 s
     * @return a lock client on the container
     * @throws io.locksmith.LockConfigurationException if the credentials are refused or the
     *     container is missing and cannot be created
     * @throws io.locksmith.LockBackendException if the storage account cannot be reached
     */
    public static LockClient open(BlobContainerClient container, LockOptions options) {
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(options, "options");
        // the same pipeline, driven asynchronously: renewals of many leases run concurrently
        BlobContainerAsyncClient async = new BlobContainerClientBuilder()
                .endpoint(container.getBlobContainerUrl())
                .pipeline(container.getHttpPipeline())
                .serviceVersion(container.getServiceVersion())
                .buildAsyncClient();
        return open(async, options);
    }

    /**
     * @param container an asynchronous container client, used as it is
     * @param options the lock options; leases must be 15 s to 60 s
     * @return a lock client on the container
     * @throws io.locksmith.LockConfigurationException if the credentials are refused or the
     *     container is missing and cannot be created
     * @throws io.locksmith.LockBackendException if the storage account cannot be reached
     */
    public static LockClient open(BlobContainerAsyncClient container, LockOptions options) {
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(options, "options");
        String description = AzureBlobAddress.describe(container) + " (existing client)";
        return LockClient.of(
                context -> AzureBlobBackend.open(container, description, AzureBlobSettings.DEFAULTS), options);
    }
}
