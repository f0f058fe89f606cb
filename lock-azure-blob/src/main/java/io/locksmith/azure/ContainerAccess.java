package io.locksmith.azure;

import com.azure.storage.blob.BlobContainerAsyncClient;
import com.azure.storage.blob.models.BlobErrorCode;
import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;

/**
 * Checks at open that the credentials work and the container is there, and creates it when it
 * is missing (unless told not to), so that configuration errors surface when the client is
 * opened rather than at the first acquisition.
 */
final class ContainerAccess {

    private final BlobContainerAsyncClient container;
    private final String description;
    private final AzureBlobSettings settings;

    ContainerAccess(BlobContainerAsyncClient container, String description, AzureBlobSettings settings) {
        this.container = container;
        this.description = description;
        this.settings = settings;
    }

    /**
     * Reads the properties of a blob no lock uses: it needs only the read permission lock
     * operations need anyway, works with SAS tokens limited to blobs, and its 404 says whether the
     * container or only the blob is missing.
     */
    void probe() {
        try {
            container
                    .getBlobAsyncClient(BlobNames.PROBE)
                    .getProperties()
                    .timeout(settings.timeout())
                    .block();
        } catch (RuntimeException e) {
            if (AzureFailures.is(e, 404, BlobErrorCode.BLOB_NOT_FOUND.toString())) {
                return;
            }
            if (AzureFailures.is(e, 404, BlobErrorCode.CONTAINER_NOT_FOUND.toString())) {
                create();
                return;
            }
            int status = AzureFailures.status(e);
            if (status == 401 || status == 403) {
                throw new LockConfigurationException(
                        "access to " + description + " was refused: "
                                + AzureFailures.describe(e, settings.timeout()) + "; locks need read, write and create"
                                + " permissions on the container's blobs",
                        e);
            }
            throw new LockBackendException(
                    "cannot reach " + description + ": " + AzureFailures.describe(e, settings.timeout()), e);
        }
    }

    /** Creates the missing container; another client creating it at the same time is fine. */
    void create() {
        String name = container.getBlobContainerName();
        if (!settings.createContainer()) {
            throw new LockConfigurationException("container '" + name + "' does not exist on " + description
                    + " and create-container=false: create the container first");
        }
        try {
            container.createWithResponse(null, null).timeout(settings.timeout()).block();
        } catch (RuntimeException e) {
            if (AzureFailures.is(e, 409, BlobErrorCode.CONTAINER_ALREADY_EXISTS.toString())) {
                return;
            }
            int status = AzureFailures.status(e);
            if (status == 401 || status == 403) {
                throw new LockConfigurationException(
                        "container '" + name + "' does not exist on " + description
                                + " and these credentials may not create it ("
                                + AzureFailures.describe(e, settings.timeout())
                                + "): create the container, or use credentials allowed to create containers",
                        e);
            }
            throw new LockBackendException(
                    "container '" + name + "' does not exist on " + description + " and creating it failed: "
                            + AzureFailures.describe(e, settings.timeout()),
                    e);
        }
    }
}
