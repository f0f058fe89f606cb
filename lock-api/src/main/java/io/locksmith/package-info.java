/**
 * Distributed locks: open a {@link io.locksmith.LockClient} from a URI, ask it for a
 * {@link io.locksmith.DistributedLock} by name, and hold a {@link io.locksmith.LockHandle} while
 * you work.
 *
 * <pre>{@code
 * try (LockClient locks = LockClient.open("redis://localhost:6379")) {
 *     try (LockHandle held = locks.lock("order:12345").acquire(Duration.ofSeconds(10))) {
 *         charge(order, held.fencingToken());
 *     }
 * }
 * }</pre>
 */
package io.locksmith;
