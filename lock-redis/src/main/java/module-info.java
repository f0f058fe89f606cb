/** Locksmith's Redis backend: {@code redis://}, {@code rediss://}, {@code redis-sentinel://}, {@code redis-cluster://}. */
module io.locksmith.redis {
    requires io.locksmith.api;
    requires lettuce.core;
    requires org.slf4j;
    // Lettuce is an automatic module: on the module path it reads every module but requires none,
    // so nothing would bring in the Netty modules it runs on (NoClassDefFoundError ChannelGroup).
    // These are the ones its POM declares; they bring the rest of Netty they need.
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.handler;
    requires io.netty.resolver.dns;

    exports io.locksmith.redis;

    provides io.locksmith.spi.LockProvider with
            io.locksmith.redis.RedisLockProvider;
}
