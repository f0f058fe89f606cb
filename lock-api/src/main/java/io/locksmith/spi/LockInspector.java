package io.locksmith.spi;

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
     * A holder as the backend sees it.
     *
     * @param owner the owner the grant was made to
     * @param token the grant's fencing token
     * @param remaining the lease left by the backend's clock, or {@code null} if unknown
     */
    record HolderState(String owner, long token, java.time.Duration remaining) {}
}
