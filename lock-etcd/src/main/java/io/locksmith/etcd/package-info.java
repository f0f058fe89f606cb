/**
 * The etcd backend, on jetcd: every acquisition puts its own key under the lock's prefix on the
 * client's lease; the oldest key (lowest create revision) holds, and its revision is the fencing
 * token; waiters queue by revision and each watches only its predecessor.
 *
 * <p>Open it with {@code LockClient.open("etcd://host:2379")}, or around an existing jetcd client
 * with {@link io.locksmith.etcd.EtcdLocks}.
 */
package io.locksmith.etcd;
