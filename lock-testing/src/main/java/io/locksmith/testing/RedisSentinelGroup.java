package io.locksmith.testing;

/**
 * A Redis master with one replica and one Sentinel that monitors the master under
 * {@link #masterName()}, for failover tests.
 *
 * <p>Killing {@link #master()} makes the Sentinel promote the replica after about
 * {@code down-after-milliseconds} (1 s) plus an election; ask the Sentinel where the master is
 * rather than assuming it.
 *
 * <pre>{@code
 * RedisSentinelGroup group = TestServers.redisWithReplicaAndSentinel();
 * RedisClient client = RedisClient.create(RedisURI.create(group.sentinelUri()));
 * }</pre>
 */
public interface RedisSentinelGroup {

    /**
     * The server started as master.
     *
     * @return the master at start-up
     */
    TestServer master();

    /**
     * The server started as the master's replica.
     *
     * @return the replica at start-up
     */
    TestServer replica();

    /**
     * The Sentinel (a {@code redis-server --sentinel} process).
     *
     * @return the Sentinel
     */
    TestServer sentinel();

    /**
     * The name the Sentinel monitors the master under.
     *
     * @return {@code "mymaster"}
     */
    String masterName();

    /**
     * A Lettuce-style Sentinel URI: {@code redis-sentinel://127.0.0.1:S#mymaster}.
     *
     * @return the Sentinel URI
     */
    String sentinelUri();
}
