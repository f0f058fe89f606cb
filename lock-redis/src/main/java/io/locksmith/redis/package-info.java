/**
 * The Redis backend, on Lettuce: one Lua script to acquire (set-if-absent with a lease and a
 * fencing counter in the same hash slot), one to release (compare owner, delete, publish), one to
 * renew all of a client's locks per tick; waiters woken over one pub/sub connection per client.
 *
 * <p>Open it with {@code LockClient.open("redis://host:6379")}, or around an existing Lettuce
 * client with {@link io.locksmith.redis.RedisLocks}.
 */
package io.locksmith.redis;
