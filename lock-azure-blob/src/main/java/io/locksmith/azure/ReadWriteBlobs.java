package io.locksmith.azure;

import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.DeleteSnapshotsOptionType;
import com.azure.storage.blob.models.LeaseStateType;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A read-write lock as leases on a key's blobs under {@code locksmith-rw/<hex SHA-256 of the key>/}:
 * a {@code header} blob whose metadata holds the fencing counter, a {@code writer} blob and one
 * {@code reader-<lease id>} blob per reading owner. Lock blobs are {@code locksmith/<hex>} and
 * semaphore blobs {@code locksmith-permit/<hex>/}, so the three families never meet.
 *
 * <p>A writer's attempt leases {@code writer} (another owner's lease there: not granted), then
 * lists the key's blobs. A live reader lease there: not granted, and the writer keeps its lease,
 * which is its waiting mark: readers that come later see it and wait. Its next attempt takes the
 * lease again with the same id, which renews the mark; {@link #abandon} gives it back when the
 * writer stops waiting. With no reader left the writer counts the header's counter up (If-Match
 * on its ETag) and writes its owner and token to {@code writer} under the lease.
 *
 * <p>A reader's attempt lists the key's blobs; a live lease on {@code writer} (a writer holding or
 * waiting): not granted. Otherwise it leases its own reader blob (creating it on first use),
 * counts the counter up, then reads {@code writer}'s lease again, and gives its lease back if a
 * writer took it meanwhile; else it writes its owner and token to its blob under the lease. A
 * writer leases and then reads the readers; a reader leases and then reads the writer: whichever
 * of the two looks second sees the other, so they are never both granted.
 *
 * <p>An attempt of an owner that finds its own grant in place (its answer was lost) gets that
 * grant and token again, unless the other side came in since: a writer's grant with live readers
 * beside it, or a reader's with {@code writer} leased once its lease is taken again, had its
 * lease run out, and the attempt goes on as a new one (a writer marks the key and waits; a reader
 * gives its lease back). Releasing a reader deletes its blob under its lease; an attempt that
 * goes on to lease deletes the reader blobs it listed whose lease expired (a reader that died),
 * best effort.
 */
final class ReadWriteBlobs {

    static final String HEADER = "header";
    static final String WRITER = "writer";
    static final String READER = "reader-";
    /** Writer metadata: present while the writer blob's lease is a waiting writer's mark, not a grant. */
    static final String WAITING = "locksmith_waiting";

    private final Blobs blobs;

    ReadWriteBlobs(Blobs blobs) {
        this.blobs = blobs;
    }

    static String prefix(String key) {
        return "locksmith-rw/" + BlobNames.blob(key).substring("locksmith/".length()) + "/";
    }

    static String writer(String key) {
        return prefix(key) + WRITER;
    }

    static String reader(String key, String owner) {
        return prefix(key) + READER + BlobNames.leaseId(owner);
    }

    /** What one listing of a key's blobs says; {@code headerEtag} is null while there is no header. */
    private record Listing(
            String headerEtag, long fence, BlobItem writer, List<BlobItem> readers, List<BlobItem> dead) {

        boolean writerLive() {
            return writer != null && Blobs.live(writer);
        }

        BlobItem reader(String name) {
            return readers.stream()
                    .filter(r -> r.getName().equals(name))
                    .findFirst()
                    .orElse(null);
        }
    }

    AcquireResult tryAcquire(AcquireRequest request, Runnable createContainer) {
        return request.hold().kind() == Hold.Kind.WRITE
                ? write(request, createContainer)
                : read(request, createContainer);
    }

    private AcquireResult write(AcquireRequest request, Runnable createContainer) {
        String key = request.key();
        String name = writer(key);
        String leaseId = BlobNames.leaseId(request.owner());
        int seconds = LeaseTerm.seconds(request.lease());
        if (!take(name, leaseId, seconds, key, createContainer)) {
            return Held.UNKNOWN; // another writer holds or waits
        }
        Listing listing = list(key);
        Map<String, String> mine =
                listing.writer() == null ? null : listing.writer().getMetadata();
        if (granted(mine, request.owner()) && listing.readers().isEmpty()) {
            return new Grant(BlobNames.fence(mine), new LeaseTerm(seconds, name)); // a retry whose answer was lost
        }
        // with readers in, an earlier grant of ours is over: its lease ended and they came in
        deleteDead(listing);
        if (!listing.readers().isEmpty()) {
            if (!waitingMark(mine, request.owner())) {
                // say whose mark the lease is, so that an inspector does not take it for the last grant
                Map<String, String> mark =
                        new HashMap<>(BlobNames.metadata(key, request.owner(), BlobNames.fence(mine)));
                mark.put(WAITING, "1");
                blobs.call(blobs.blob(name)
                        .setMetadataWithResponse(mark, new BlobRequestConditions().setLeaseId(leaseId)));
            }
            return Held.UNKNOWN; // keep the lease: the mark that holds new readers back
        }
        long token = bump(key, listing);
        blobs.call(blobs.blob(name)
                .setMetadataWithResponse(
                        BlobNames.metadata(key, request.owner(), token),
                        new BlobRequestConditions().setLeaseId(leaseId)));
        return new Grant(token, new LeaseTerm(seconds, name));
    }

    private AcquireResult read(AcquireRequest request, Runnable createContainer) {
        String key = request.key();
        String name = reader(key, request.owner());
        String leaseId = BlobNames.leaseId(request.owner());
        int seconds = LeaseTerm.seconds(request.lease());
        Listing listing = list(key);
        BlobItem own = listing.reader(name);
        if (own != null && granted(own.getMetadata(), request.owner())) {
            blobs.call(blobs.lease(name, leaseId).acquireLease(seconds)); // a retry whose answer was lost
            if (writerLeased(key)) {
                // the lease may have run out between the listing and now, and a writer come in:
                // give the grant up rather than hold beside it
                delete(name, leaseId);
                return Held.UNKNOWN;
            }
            return new Grant(BlobNames.fence(own.getMetadata()), new LeaseTerm(seconds, name));
        }
        if (listing.writerLive()) {
            return Held.UNKNOWN; // a writer holds, or waits and keeps new readers back
        }
        deleteDead(listing);
        if (!take(name, leaseId, seconds, key, createContainer)) {
            return Held.UNKNOWN; // not this owner's lease: cannot happen unless the blob was tampered with
        }
        long token;
        try {
            token = bump(key, listing);
            if (writerLeased(key)) {
                delete(name, leaseId);
                return Held.UNKNOWN; // a writer leased meanwhile: it goes first
            }
            blobs.call(blobs.blob(name)
                    .setMetadataWithResponse(
                            BlobNames.metadata(key, request.owner(), token),
                            new BlobRequestConditions().setLeaseId(leaseId)));
        } catch (RuntimeException e) {
            deleteQuietly(name, leaseId);
            throw e;
        }
        return new Grant(token, new LeaseTerm(seconds, name));
    }

    /** @return whether a writer blob's metadata is {@code owner}'s waiting mark */
    private static boolean waitingMark(Map<String, String> metadata, String owner) {
        return metadata != null
                && metadata.get(WAITING) != null
                && owner.equals(BlobNames.decode(metadata.get(BlobNames.OWNER)));
    }

    /** @return whether a blob's metadata records a grant to {@code owner} (not a waiting mark) */
    private static boolean granted(Map<String, String> metadata, String owner) {
        return metadata != null
                && metadata.get(BlobNames.FENCE) != null
                && metadata.get(WAITING) == null
                && owner.equals(BlobNames.decode(metadata.get(BlobNames.OWNER)));
    }

    /** Leases a blob of the key, creating it (and the container, if allowed) on first use. */
    private boolean take(String name, String leaseId, int seconds, String key, Runnable createContainer) {
        try {
            return blobs.take(name, leaseId, seconds, Map.of(BlobNames.NAME, BlobNames.encode(key)));
        } catch (RuntimeException e) {
            if (AzureFailures.status(e) != 404) {
                throw e;
            }
            createContainer.run();
            return blobs.take(name, leaseId, seconds, Map.of(BlobNames.NAME, BlobNames.encode(key)));
        }
    }

    private boolean writerLeased(String key) {
        try {
            BlobProperties p = blobs.call(blobs.blob(writer(key)).getProperties());
            return Blobs.live(p.getLeaseState());
        } catch (RuntimeException e) {
            if (AzureFailures.status(e) == 404) {
                return false; // no writer ever came
            }
            throw e;
        }
    }

    /**
     * Counts the header's fencing counter up for a grant whose blob is leased: If-Match on the
     * ETag listed, again from a fresh read when another grant moved it first; creates the header
     * with the first token when there is none.
     */
    private long bump(String key, Listing listing) {
        String header = prefix(key) + HEADER;
        String etag = listing.headerEtag();
        long fence = listing.fence();
        for (int attempt = 0; attempt < 50; attempt++) {
            if (etag == null) {
                blobs.upload(header, headerMetadata(key, 0));
            } else if (blobs.setIfMatch(header, etag, headerMetadata(key, fence + 1))) {
                return fence + 1;
            }
            BlobProperties p = blobs.call(blobs.blob(header).getProperties());
            etag = p.getETag();
            fence = BlobNames.fence(p.getMetadata());
        }
        throw new IllegalStateException("the fencing counter kept moving under 50 attempts to count it up");
    }

    private static Map<String, String> headerMetadata(String key, long fence) {
        return Map.of(BlobNames.NAME, BlobNames.encode(key), BlobNames.FENCE, Long.toString(fence));
    }

    private Listing list(String key) {
        String etag = null;
        long fence = 0;
        BlobItem writer = null;
        List<BlobItem> readers = new ArrayList<>();
        List<BlobItem> dead = new ArrayList<>();
        for (BlobItem item : blobs.list(prefix(key))) {
            String leaf = item.getName().substring(prefix(key).length());
            if (leaf.equals(HEADER)) {
                etag = item.getProperties().getETag();
                fence = BlobNames.fence(item.getMetadata());
            } else if (leaf.equals(WRITER)) {
                writer = item;
            } else if (leaf.startsWith(READER)) {
                if (Blobs.live(item)) {
                    readers.add(item);
                } else if (isDead(item.getProperties().getLeaseState())) {
                    dead.add(item);
                }
            }
        }
        return new Listing(etag, fence, writer, readers, dead);
    }

    private static boolean isDead(LeaseStateType state) {
        return state == LeaseStateType.EXPIRED || state == LeaseStateType.BROKEN;
    }

    /**
     * Deletes the blobs of readers whose lease ran out. Unconditional deletes, which the service
     * refuses while a blob is leased: a reader that takes its blob's lease again meanwhile keeps it.
     */
    private void deleteDead(Listing listing) {
        for (BlobItem item : listing.dead()) {
            try {
                blobs.call(blobs.blob(item.getName()).delete());
            } catch (RuntimeException e) {
                // leased again, or gone already
            }
        }
    }

    /** Releases a hold: a reader's blob is deleted under its lease, a writer's lease given back. */
    boolean release(HeldLease held, String blob) {
        String leaseId = BlobNames.leaseId(held.owner());
        try {
            if (held.hold().kind() == Hold.Kind.READ) {
                delete(blob, leaseId);
            } else {
                blobs.call(blobs.lease(blob, leaseId).releaseLease());
            }
            return true;
        } catch (RuntimeException e) {
            int status = AzureFailures.status(e);
            if (status == 404 || status == 409 || status == 412) {
                return false; // the lease is gone or has another id: nothing of ours to release
            }
            throw e;
        }
    }

    /**
     * Gives back what an attempt that ends without a grant may have leased: a writer's lease (its
     * waiting mark), a reader's blob. The lease id is the owner's, so never another owner's lease.
     */
    void abandon(AcquireRequest request) {
        String leaseId = BlobNames.leaseId(request.owner());
        if (request.hold().kind() == Hold.Kind.WRITE) {
            blobs.releaseQuietly(writer(request.key()), leaseId);
        } else {
            deleteQuietly(reader(request.key(), request.owner()), leaseId);
        }
    }

    private void delete(String name, String leaseId) {
        blobs.call(blobs.blob(name)
                .deleteWithResponse(
                        DeleteSnapshotsOptionType.INCLUDE, new BlobRequestConditions().setLeaseId(leaseId)));
    }

    private void deleteQuietly(String name, String leaseId) {
        try {
            delete(name, leaseId);
        } catch (RuntimeException e) {
            // not ours, or gone: the lease runs out by itself, and a writer deletes the blob
        }
    }

    /** The holders of a read-write lock's key: its readers by token, then its writer if one is granted. */
    List<LockInspector.Holder> holders(String key) {
        Listing listing = list(key);
        List<LockInspector.Holder> holders = new ArrayList<>();
        listing.readers().stream()
                .filter(r -> r.getMetadata() != null && r.getMetadata().get(BlobNames.FENCE) != null)
                .sorted(Comparator.comparingLong(r -> BlobNames.fence(r.getMetadata())))
                .forEach(r -> holders.add(holder(Hold.Kind.READ, r.getMetadata())));
        Map<String, String> w =
                listing.writer() == null ? null : listing.writer().getMetadata();
        if (listing.writerLive() && w != null && w.get(BlobNames.OWNER) != null && w.get(WAITING) == null) {
            holders.add(holder(Hold.Kind.WRITE, w));
        }
        return holders;
    }

    private static LockInspector.Holder holder(Hold.Kind kind, Map<String, String> metadata) {
        String owner = BlobNames.decode(metadata.get(BlobNames.OWNER));
        return new LockInspector.Holder(
                kind,
                new LockInspector.HolderState(owner == null ? "unknown" : owner, BlobNames.fence(metadata), null));
    }
}
