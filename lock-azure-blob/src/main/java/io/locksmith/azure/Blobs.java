package io.locksmith.azure;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobAsyncClient;
import com.azure.storage.blob.BlobContainerAsyncClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobListDetails;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.LeaseStateType;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.specialized.BlobLeaseAsyncClient;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The blob calls that the holds kept on several blobs per key (a semaphore's slots, a read-write
 * lock's reader and writer blobs) have in common: lease a blob, creating it on first use; create
 * a blob if missing; list a key's blobs with metadata and lease state; replace a header's
 * metadata on an ETag. Every call blocks through the backend's bound.
 */
final class Blobs {

    private static final BinaryData EMPTY = BinaryData.fromBytes(new byte[0]);

    private final BlobContainerAsyncClient container;
    private final Function<Mono<?>, Object> block;

    Blobs(BlobContainerAsyncClient container, Function<Mono<?>, Object> block) {
        this.container = container;
        this.block = block;
    }

    BlobAsyncClient blob(String name) {
        return container.getBlobAsyncClient(name);
    }

    BlobLeaseAsyncClient lease(String name, String leaseId) {
        return new BlobLeaseClientBuilder()
                .blobAsyncClient(blob(name))
                .leaseId(leaseId)
                .buildAsyncClient();
    }

    /** Takes a blob's lease, creating the blob on first use; {@code false} if another holds it. */
    boolean take(String name, String leaseId, int seconds, Map<String, String> metadata) {
        for (int attempt = 0; ; attempt++) {
            try {
                call(lease(name, leaseId).acquireLease(seconds));
                return true;
            } catch (RuntimeException e) {
                int status = AzureFailures.status(e);
                if (status == 409) {
                    return false;
                }
                if (status != 404 || attempt > 1) {
                    throw e;
                }
                upload(name, metadata);
            }
        }
    }

    /** Creates a blob if it is missing; a blob that exists already is left as it is. */
    void upload(String name, Map<String, String> metadata) {
        BlockBlobSimpleUploadOptions upload = new BlockBlobSimpleUploadOptions(EMPTY)
                .setMetadata(metadata)
                .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*"));
        try {
            call(blob(name).getBlockBlobAsyncClient().uploadWithResponse(upload));
        } catch (RuntimeException e) {
            int status = AzureFailures.status(e);
            if (status != 409 && status != 412) {
                throw e;
            }
        }
    }

    /** Replaces a blob's metadata if its ETag is still {@code etag}; {@code false} if it moved. */
    boolean setIfMatch(String name, String etag, Map<String, String> metadata) {
        try {
            call(blob(name).setMetadataWithResponse(metadata, new BlobRequestConditions().setIfMatch(etag)));
            return true;
        } catch (RuntimeException e) {
            if (AzureFailures.status(e) == 412) {
                return false;
            }
            throw e;
        }
    }

    /** @return the blobs under {@code prefix}, with metadata and lease state: one call */
    @SuppressWarnings("unchecked")
    List<BlobItem> list(String prefix) {
        ListBlobsOptions options =
                new ListBlobsOptions().setPrefix(prefix).setDetails(new BlobListDetails().setRetrieveMetadata(true));
        return (List<BlobItem>) block.apply(container.listBlobs(options).collectList());
    }

    static boolean live(LeaseStateType state) {
        return state == LeaseStateType.LEASED || state == LeaseStateType.BREAKING;
    }

    static boolean live(BlobItem item) {
        return live(item.getProperties().getLeaseState());
    }

    void releaseQuietly(String name, String leaseId) {
        try {
            call(lease(name, leaseId).releaseLease());
        } catch (RuntimeException e) {
            // not ours, or gone: the lease runs out by itself
        }
    }

    @SuppressWarnings("unchecked")
    <T> T call(Mono<T> call) {
        return (T) block.apply(call);
    }
}
