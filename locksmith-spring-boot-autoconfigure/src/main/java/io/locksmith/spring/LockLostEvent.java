package io.locksmith.spring;

import io.locksmith.LossReason;

/**
 * Published as an application event when a lock taken by a {@link Locked} method is lost before it
 * is released: its lease ran out, another owner took it, or the backend's session ended. Listen
 * with {@code @EventListener}; it arrives on a Locksmith thread, not the method's.
 *
 * @param lockName the lock's name
 * @param fencingToken the lost grant's fencing token
 * @param reason why it was lost
 * @param method the method that held it, as {@code Class.method}
 */
public record LockLostEvent(String lockName, long fencingToken, LossReason reason, String method) {}
