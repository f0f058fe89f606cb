package io.locksmith.azure;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.rest.Response;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobAsyncClient;
import com.azure.storage.blob.BlobContainerAsyncClient;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.LeaseStateType;
import com.azure.storage.blob.options.BlobAcquireLeaseOptions;
import com.azure.storage.blob.options.BlobReleaseLeaseOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.specialized.BlobLeaseAsyncClient;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import io.locksmith.LockBackendException;
import io.locksmith.PermitMismatchException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * Locks as blob leases. Acquire: take a lease on the lock's blob (creating the blob first if it
 * is missing), then write the incremented fencing counter to its metadata under that lease id;
 * if the write fails the lease is released and the attempt fails. Release: release the lease by
 * its id. Renewal: renew every held lease, in parallel, changing a lease's length where an extend
 * asks for another ({@link LeaseRenewal}). Leases are kept by
 * the storage service's clock; the lease id, derived from the acquisition's owner, is the
 * ownership check the service makes on every renewal and release.
 */
final class AzureBlobBackend implements LockBackend {

    private static final BinaryData EMPTY = BinaryData.fromBytes(new byte[0]);

    private final BlobContainerAsyncClient container;
    private final String description;
    private final AzureBlobSettings settings;
    private final ContainerAccess access;
    private final FenceCache written = new FenceCache();
    private final LeaseRenewal renewal;
    private final PermitSlots permits;
    private final ReadWriteBlobs readWrite;

    private AzureBlobBackend(BlobContainerAsyncClient container, String description, AzureBlobSettings settings) {
        this.container = container;
        this.description = description;
        this.settings = settings;
        this.access = new ContainerAccess(container, description, settings);
        this.renewal = new LeaseRenewal(this::leaseOf, settings.timeout());
        Blobs blobs = new Blobs(container, call -> block(call));
        this.permits = new PermitSlots(blobs, description);
        this.readWrite = new ReadWriteBlobs(blobs);
    }

    /** Opens a backend on a container client, checking access and creating the container if allowed. */
    static AzureBlobBackend open(BlobContainerAsyncClient container, String description, AzureBlobSettings settings) {
        AzureBlobBackend backend = new AzureBlobBackend(container, description, settings);
        backend.access.probe();
        return backend;
    }

    @Override
    public String description() {
        return description;
    }

    /** Azure's shortest finite lease. */
    @Override
    public Duration minimumLease() {
        return Duration.ofSeconds(LeaseTerm.MINIMUM_SECONDS);
    }

    /** Azure's longest finite lease; an infinite lease would never free a crashed holder's lock. */
    @Override
    public Duration maximumLease() {
        return Duration.ofSeconds(LeaseTerm.MAXIMUM_SECONDS);
    }

    /** A renewal for another length changes the lease's length ({@link LeaseRenewal}). */
    @Override
    public boolean renewsForAnyLease() {
        return true;
    }

    /** One request per lease: renewed in calls of {@link LeaseRenewal#BATCH_LIMIT}, each credited from its own sending. */
    @Override
    public int renewalBatchLimit() {
        return LeaseRenewal.BATCH_LIMIT;
    }

    /** Locks, semaphores ({@link PermitSlots}) and read-write locks ({@link ReadWriteBlobs}). */
    @Override
    public Set<Hold.Kind> holds() {
        return EnumSet.allOf(Hold.Kind.class);
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        if (request.hold().kind() == Hold.Kind.PERMIT) {
            try {
                return permits.tryAcquire(request, access::create);
            } catch (PermitMismatchException e) {
                throw e;
            } catch (RuntimeException e) {
                throw e instanceof LockBackendException b ? b : failure("acquire", request.name(), e);
            }
        }
        if (shared(request.hold())) {
            try {
                return readWrite.tryAcquire(request, access::create);
            } catch (RuntimeException e) {
                throw e instanceof LockBackendException b ? b : failure("acquire", request.name(), e);
            }
        }
        String blobName = BlobNames.blob(request.key());
        BlobAsyncClient blob = container.getBlobAsyncClient(blobName);
        BlobLeaseAsyncClient lease = lease(blob, BlobNames.leaseId(request.owner()));
        int seconds = LeaseTerm.seconds(request.lease());
        String etag = null;
        for (int attempt = 0; ; attempt++) {
            try {
                Response<String> taken = block(lease.acquireLeaseWithResponse(new BlobAcquireLeaseOptions(seconds)));
                etag = taken.getHeaders().getValue(HttpHeaderName.ETAG);
                break;
            } catch (RuntimeException e) {
                if (AzureFailures.status(e) == 409) {
                    return Held.UNKNOWN; // leased (or breaking) by another owner; a lease tells no remaining time
                }
                if (attempt < 2 && AzureFailures.status(e) == 404) {
                    create(blob, blobName, request, e);
                    continue;
                }
                throw failure("acquire", request.name(), e);
            }
        }
        try {
            return new Grant(writeFence(blob, blobName, lease.getLeaseId(), etag, request), new LeaseTerm(seconds));
        } catch (RuntimeException e) {
            releaseQuietly(lease);
            throw e instanceof LockBackendException b ? b : failure("acquire", request.name(), e);
        }
    }

    /** Creates the lock's blob, empty, with the counter at 0; if another client created it first, fine. */
    private void create(BlobAsyncClient blob, String blobName, AcquireRequest request, RuntimeException missing) {
        if (AzureFailures.is(missing, 404, BlobErrorCode.CONTAINER_NOT_FOUND.toString())) {
            access.create();
        }
        BlockBlobSimpleUploadOptions upload = new BlockBlobSimpleUploadOptions(EMPTY)
                .setMetadata(Map.of(BlobNames.NAME, BlobNames.encode(request.key()), BlobNames.FENCE, "0"))
                .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*"));
        try {
            String etag = block(blob.getBlockBlobAsyncClient().uploadWithResponse(upload))
                    .getValue()
                    .getETag();
            written.put(blobName, etag, 0, null);
        } catch (RuntimeException e) {
            int status = AzureFailures.status(e);
            if (status == 409 || status == 412) {
                return; // it exists now (and may be leased already): the next lease attempt tells
            }
            if (AzureFailures.is(e, 404, BlobErrorCode.CONTAINER_NOT_FOUND.toString())) {
                access.create();
                return; // the caller tries again, and creates the blob in the new container
            }
            throw failure("create the blob of", request.name(), e);
        }
    }

    /**
     * Increments the counter under the lease: the lease id condition means only the holder can
     * write, and the If-Match condition means the counter read (or remembered) is the one replaced.
     *
     * <p>When the metadata already names this request's owner, an earlier attempt of the same wait
     * took the lease and wrote the counter, and only its answer was lost: that counter is this
     * grant's token, not to be counted up twice. Nobody was granted in between, since every grant
     * writes its own owner; we hold the lease now, so nobody can write it meanwhile either.
     */
    private long writeFence(BlobAsyncClient blob, String blobName, String leaseId, String leaseEtag, AcquireRequest r) {
        FenceCache.Written known = written.get(blobName);
        for (int attempt = 0; ; attempt++) {
            long next;
            String ifMatch;
            if (attempt == 0 && known != null && known.etag().equals(leaseEtag)) {
                if (r.owner().equals(known.owner())) {
                    return known.fence();
                }
                next = known.fence() + 1;
                ifMatch = known.etag();
            } else {
                BlobProperties properties =
                        block(blob.getPropertiesWithResponse(null)).getValue();
                Map<String, String> metadata = properties.getMetadata();
                if (metadata != null && r.owner().equals(BlobNames.decode(metadata.get(BlobNames.OWNER)))) {
                    long fence = BlobNames.fence(metadata);
                    written.put(blobName, properties.getETag(), fence, r.owner());
                    return fence;
                }
                next = BlobNames.fence(metadata) + 1;
                ifMatch = properties.getETag();
            }
            try {
                Response<Void> done = block(blob.setMetadataWithResponse(
                        BlobNames.metadata(r.key(), r.owner(), next),
                        new BlobRequestConditions().setLeaseId(leaseId).setIfMatch(ifMatch)));
                written.put(blobName, done.getHeaders().getValue(HttpHeaderName.ETAG), next, r.owner());
                return next;
            } catch (RuntimeException e) {
                written.forget(blobName);
                if (attempt == 0 && AzureFailures.is(e, 412, BlobErrorCode.CONDITION_NOT_MET.toString())) {
                    continue; // the remembered counter was stale: read it and try once more
                }
                throw failure("write the fencing counter of", r.name(), e);
            }
        }
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        return renewal.renew(leases);
    }

    @Override
    public boolean release(HeldLease held) {
        if (shared(held.hold())) {
            try {
                return readWrite.release(held, held.attachment(LeaseTerm.class).blob());
            } catch (RuntimeException e) {
                throw failure("release", held.name(), e);
            }
        }
        return release(leaseOf(held), "release", held.name());
    }

    private static boolean shared(Hold hold) {
        return hold.kind() == Hold.Kind.READ || hold.kind() == Hold.Kind.WRITE;
    }

    private boolean release(BlobLeaseAsyncClient lease, String what, String lockName) {
        try {
            block(lease.releaseLeaseWithResponse(new BlobReleaseLeaseOptions()));
            return true;
        } catch (RuntimeException e) {
            int status = AzureFailures.status(e);
            if (status == 404 || status == 409 || status == 412) {
                return false; // the lease is gone or has another id: nothing of ours to release
            }
            throw failure(what, lockName, e);
        }
    }

    /**
     * Releases the lease an attempt with unknown outcome may have taken: its lease id derives from
     * the request's owner, so the service itself checks that it is that attempt's and no other's.
     */
    @Override
    public void abandon(AcquireRequest request) {
        if (request.hold().kind() == Hold.Kind.PERMIT) {
            try {
                permits.abandon(request);
            } catch (RuntimeException e) {
                throw failure("abandon an attempt on", request.name(), e);
            }
            return;
        }
        if (shared(request.hold())) {
            try {
                readWrite.abandon(request);
            } catch (RuntimeException e) {
                throw failure("abandon an attempt on", request.name(), e);
            }
            return;
        }
        release(
                lease(container.getBlobAsyncClient(BlobNames.blob(request.key())), BlobNames.leaseId(request.owner())),
                "abandon an attempt on",
                request.name());
    }

    /** Reads the blob's lease state and metadata: one call, no lease needed. */
    @Override
    public Optional<LockInspector> inspector() {
        return Optional.of(new LockInspector() {
            @Override
            public Optional<LockInspector.HolderState> inspect(String key) {
                return inspectLock(key);
            }

            @Override
            public Optional<List<LockInspector.Holder>> holders(String key, Hold.Kind kind) {
                if (kind == Hold.Kind.EXCLUSIVE) {
                    return Optional.empty();
                }
                try {
                    return Optional.of(kind == Hold.Kind.PERMIT ? permits.holders(key) : readWrite.holders(key));
                } catch (RuntimeException e) {
                    throw failure("inspect", key, e);
                }
            }
        });
    }

    private Optional<LockInspector.HolderState> inspectLock(String key) {
        {
            BlobProperties p;
            try {
                p = block(container.getBlobAsyncClient(BlobNames.blob(key)).getPropertiesWithResponse(null))
                        .getValue();
            } catch (RuntimeException e) {
                if (AzureFailures.status(e) == 404) {
                    return Optional.empty();
                }
                throw failure("inspect", key, e);
            }
            if (p.getLeaseState() != LeaseStateType.LEASED && p.getLeaseState() != LeaseStateType.BREAKING) {
                return Optional.empty();
            }
            Map<String, String> metadata = p.getMetadata();
            String owner = metadata == null ? null : BlobNames.decode(metadata.get(BlobNames.OWNER));
            return Optional.of(
                    new LockInspector.HolderState(owner == null ? "unknown" : owner, BlobNames.fence(metadata), null));
        }
    }

    @Override
    public void close() {
        // the Azure client has nothing to close: its HTTP connections idle out of the pool
    }

    private BlobLeaseAsyncClient leaseOf(HeldLease held) {
        LeaseTerm term = held.attachment(LeaseTerm.class);
        if (term != null && term.blob() != null) {
            return lease(container.getBlobAsyncClient(term.blob()), BlobNames.leaseId(held.owner()));
        }
        return lease(container.getBlobAsyncClient(BlobNames.blob(held.key())), BlobNames.leaseId(held.owner()));
    }

    private static BlobLeaseAsyncClient lease(BlobAsyncClient blob, String leaseId) {
        return new BlobLeaseClientBuilder()
                .blobAsyncClient(blob)
                .leaseId(leaseId)
                .buildAsyncClient();
    }

    private void releaseQuietly(BlobLeaseAsyncClient lease) {
        try {
            block(lease.releaseLeaseWithResponse(new BlobReleaseLeaseOptions()));
        } catch (RuntimeException e) {
            // the lease runs out by itself
        }
    }

    private <T> T block(Mono<T> call) {
        return call.timeout(settings.timeout()).block();
    }

    private LockBackendException failure(String what, String lockName, Throwable e) {
        if (AzureFailures.unwrap(e) instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new LockBackendException(
                what + " lock '" + lockName + "' failed on " + description + ": "
                        + AzureFailures.describe(e, settings.timeout()),
                e);
    }

    @Override
    public String toString() {
        return "AzureBlobBackend[" + description + "]";
    }
}
