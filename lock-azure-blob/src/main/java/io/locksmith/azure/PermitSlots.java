package io.locksmith.azure;

import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import io.locksmith.PermitMismatchException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import reactor.core.publisher.Mono;

/**
 * A semaphore's permits as leases on slot blobs. A key's blobs live under
 * {@code locksmith-permit/<hex SHA-256 of the key>/}: a header blob {@code permits} whose metadata
 * holds the permit count and the fencing counter, and slot blobs {@code slot-0} … {@code slot-(n-1)},
 * each leased by one holder, its metadata naming the holder and its token. Lock blobs are
 * {@code locksmith/<hex>}, so the families never meet.
 *
 * <p>An attempt lists the key's blobs with metadata and lease state (one call), which answers
 * everything it reads: the permit count, the counter and its ETag, which slots are free and
 * whether the request's own owner already holds one (a retried attempt, granted again with the
 * same token). It then leases a free slot, starting at a random one; bumps the header's counter
 * with If-Match on the listed ETag, which also fails if the permit count changed meanwhile; and
 * writes the holder and token to the slot under its lease. A count changes only while no slot
 * is leased, with If-Match on the same ETag, so a change and a grant cannot both win.
 */
final class PermitSlots {

    static final String HEADER = "permits";
    /** Header metadata: the permit count the current holders share (decimal). */
    static final String PERMITS = "locksmith_permits";

    private final Blobs blobs;
    private final String description;

    PermitSlots(Blobs blobs, String description) {
        this.blobs = blobs;
        this.description = description;
    }

    static String prefix(String key) {
        return "locksmith-permit/" + BlobNames.blob(key).substring("locksmith/".length()) + "/";
    }

    static String slot(String key, int index) {
        return prefix(key) + "slot-" + index;
    }

    /** What one listing of a key's blobs says. */
    private record Listing(String headerEtag, int permits, long fence, Map<Integer, BlobItem> leased, BlobItem own) {}

    AcquireResult tryAcquire(AcquireRequest request, Runnable createContainer) {
        int asked = request.hold().permits();
        int seconds = LeaseTerm.seconds(request.lease());
        String leaseId = BlobNames.leaseId(request.owner());
        for (int round = 0; round < 5; round++) {
            Listing listing = list(request.key(), request.owner());
            if (listing.own() != null) {
                String name = listing.own().getName();
                try {
                    block(blobs.lease(name, leaseId).acquireLease(seconds));
                    return new Grant(BlobNames.fence(listing.own().getMetadata()), new LeaseTerm(seconds, name));
                } catch (RuntimeException e) {
                    if (AzureFailures.status(e) != 409) {
                        throw e;
                    }
                    // it was ours and expired, and another owner took it: try as a new attempt
                }
            }
            if (listing.headerEtag() == null) {
                createHeader(request, asked, createContainer);
                continue;
            }
            if (listing.permits() != asked) {
                if (!listing.leased().isEmpty()) {
                    throw new PermitMismatchException(request.name(), listing.permits(), asked, description);
                }
                if (!setHeader(listing.headerEtag(), request.key(), asked, listing.fence())) {
                    continue; // someone else changed it first: look again
                }
                continue;
            }
            int start = ThreadLocalRandom.current().nextInt(asked);
            for (int i = 0; i < asked; i++) {
                int index = (start + i) % asked;
                if (listing.leased().containsKey(index)) {
                    continue;
                }
                String name = slot(request.key(), index);
                if (!blobs.take(name, leaseId, seconds, Map.of())) {
                    continue;
                }
                long next = bump(request, listing, name, leaseId);
                block(blobs.blob(name)
                        .setMetadataWithResponse(
                                BlobNames.metadata(request.key(), request.owner(), next),
                                new BlobRequestConditions().setLeaseId(leaseId)));
                return new Grant(next, new LeaseTerm(seconds, name));
            }
            if (listing.leased().size() >= asked) {
                return Held.UNKNOWN;
            }
        }
        return Held.UNKNOWN; // contended at every step: the core's wait tries again
    }

    private void createHeader(AcquireRequest request, int permits, Runnable createContainer) {
        try {
            blobs.upload(prefix(request.key()) + HEADER, headerMetadata(request.key(), permits, 0));
        } catch (RuntimeException e) {
            if (AzureFailures.status(e) == 404) {
                createContainer.run();
                return;
            }
            throw e;
        }
    }

    /**
     * Counts the header's fencing counter up for a grant whose slot is leased: If-Match on the
     * ETag read, again from a fresh read when another grant moved it first. Should the count
     * itself have changed meanwhile (possible only while the listing saw no slot leased), the
     * slot is given up and the request fails with the count it met.
     */
    private long bump(AcquireRequest request, Listing listing, String name, String leaseId) {
        String etag = listing.headerEtag();
        int permits = listing.permits();
        long fence = listing.fence();
        String header = prefix(request.key()) + HEADER;
        for (int attempt = 0; ; attempt++) {
            if (permits != request.hold().permits()) {
                releaseQuietly(name, leaseId);
                throw new PermitMismatchException(
                        request.name(), permits, request.hold().permits(), description);
            }
            if (setHeader(etag, request.key(), permits, fence + 1)) {
                return fence + 1;
            }
            if (attempt > 50) {
                releaseQuietly(name, leaseId);
                throw new IllegalStateException("the fencing counter kept moving under 50 attempts to count it up");
            }
            BlobProperties p = blobs.call(blobs.blob(header).getProperties());
            Map<String, String> m = p.getMetadata();
            etag = p.getETag();
            permits = m == null || m.get(PERMITS) == null ? 0 : Integer.parseInt(m.get(PERMITS));
            fence = BlobNames.fence(m);
        }
    }

    private boolean setHeader(String etag, String key, int permits, long fence) {
        return blobs.setIfMatch(prefix(key) + HEADER, etag, headerMetadata(key, permits, fence));
    }

    private static Map<String, String> headerMetadata(String key, int permits, long fence) {
        return Map.of(
                BlobNames.NAME,
                BlobNames.encode(key),
                PERMITS,
                Integer.toString(permits),
                BlobNames.FENCE,
                Long.toString(fence));
    }

    private Listing list(String key, String owner) {
        List<BlobItem> items = blobs.list(prefix(key));
        String etag = null;
        int permits = 0;
        long fence = 0;
        Map<Integer, BlobItem> leased = new HashMap<>();
        BlobItem own = null;
        for (BlobItem item : items) {
            String leaf = item.getName().substring(prefix(key).length());
            if (leaf.equals(HEADER)) {
                etag = item.getProperties().getETag();
                Map<String, String> m = item.getMetadata();
                permits = m == null || m.get(PERMITS) == null ? 0 : Integer.parseInt(m.get(PERMITS));
                fence = BlobNames.fence(m);
            } else if (leaf.startsWith("slot-") && Blobs.live(item)) {
                leased.put(Integer.parseInt(leaf.substring("slot-".length())), item);
                Map<String, String> m = item.getMetadata();
                if (m != null && owner != null && owner.equals(BlobNames.decode(m.get(BlobNames.OWNER)))) {
                    own = item;
                }
            }
        }
        return new Listing(etag, permits, fence, leased, own);
    }

    /** The holders of a semaphore's key, by their slots' metadata (grant order: by token). */
    List<LockInspector.Holder> holders(String key) {
        List<LockInspector.Holder> holders = new ArrayList<>();
        list(key, null).leased().values().stream()
                .sorted((a, b) -> Long.compare(BlobNames.fence(a.getMetadata()), BlobNames.fence(b.getMetadata())))
                .forEach(item -> {
                    Map<String, String> m = item.getMetadata();
                    String owner = m == null ? null : BlobNames.decode(m.get(BlobNames.OWNER));
                    holders.add(new LockInspector.Holder(
                            Hold.Kind.PERMIT,
                            new LockInspector.HolderState(
                                    owner == null ? "unknown" : owner, BlobNames.fence(m), null)));
                });
        return holders;
    }

    /**
     * Releases whatever slot of the key a lost attempt of this owner may have leased: the lease id
     * is the owner's, so the service releases only that owner's lease. One call per live slot.
     */
    void abandon(AcquireRequest request) {
        String leaseId = BlobNames.leaseId(request.owner());
        for (BlobItem item : list(request.key(), null).leased().values()) {
            releaseQuietly(item.getName(), leaseId);
        }
    }

    private void releaseQuietly(String name, String leaseId) {
        blobs.releaseQuietly(name, leaseId);
    }

    private void block(Mono<?> call) {
        blobs.call(call);
    }
}
