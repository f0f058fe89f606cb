package io.locksmith.spi;

import java.time.Duration;

/**
 * A grant the core holds, as handed back to the backend for renewal and release.
 *
 * @param key the backend key of the acquisition
 * @param name the lock's name, for messages
 * @param owner the owner of the acquisition
 * @param token the grant's fencing token
 * @param lease the lease to renew for
 * @param attachment what the backend put in the {@link Grant}, or {@code null}
 */
public record HeldLease(String key, String name, String owner, long token, Duration lease, Object attachment) {}
