/** Locksmith's Redis backend: {@code redis://}, {@code rediss://}, {@code redis-sentinel://}, {@code redis-cluster://}. */
module io.locksmith.redis {
    requires io.locksmith.api;
    requires lettuce.core;
    requires org.slf4j;

    exports io.locksmith.redis;

    provides io.locksmith.spi.LockProvider with io.locksmith.redis.RedisLockProvider;
}
