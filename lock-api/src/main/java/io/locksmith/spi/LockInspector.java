package io.locksmith.spi;

import java.util.List;
import java.util.Optional;

/** A backend's read-only look at a key, for operations tools: who holds it, with what token, for how long. */
public interface LockInspector {

    /**
     * Reads a key's state without changing it.
     *
     * @param key the backend key
     * @return the holder's state, or empty if the key is free
     */
    Optional<HolderState> inspect(String key);

    /**
     * Reads the holders of a key of a family that admits several (a semaphore's permits, a
     * read-write lock's readers or writer), without changing it.
     *
     * @param key the backend key
     * @param kind {@link Hold.Kind#PERMIT} for a semaphore, {@link Hold.Kind#READ} or
     *     {@link Hold.Kind#WRITE} for a read-write lock (both sides are listed, each with its kind)
     * @return the holders, in grant order where the backend knows it; empty if the backend cannot
     *     list them
     */
    default Optional<List<Holder>> holders(String key, Hold.Kind kind) {
        return Optional.empty();
    }

    /**
     * One holder of a key that admits several.
     *
     * @param kind the kind of hold it has
     * @param state its owner, token and remaining lease
     */
    record Holder(Hold.Kind kind, HolderState state) {}

    /**
     * A holder as the backend sees it.
     *
     * @param owner the owner the grant was made to
     * @param token the grant's fencing token
     * @param remaining the lease left by the backend's clock, or {@code null} if unknown
     */
    record HolderState(String owner, long token, java.time.Duration remaining) {}
}
