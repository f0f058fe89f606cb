package io.locksmith.testing;

import java.util.List;

/**
 * A Redis Cluster of three masters, each with one replica, for failover and resharding tests.
 *
 * <p>Six {@code redis-server} processes on free loopback ports, without persistence, the 16384
 * slots split evenly over the masters. A node that misses {@code cluster-node-timeout} (2 s) of
 * pings is failing: kill a master and its replica is promoted a few seconds later, by the
 * cluster itself. The other shards keep serving while one has no master. Roles change as tests
 * break things, so ask ({@link #masters()}, {@link #masterOf(String)}, {@link #replicaOf}) rather
 * than assume.
 *
 * <pre>{@code
 * RedisClusterGroup cluster = TestServers.redisCluster();
 * RedisClusterClient client = RedisClusterClient.create(RedisURI.create(cluster.uri()));  // redis-cluster://…
 * TestServer old = cluster.masterOf("orders");
 * TestServer promoted = cluster.failOver(old);     // old is killed, its replica now serves its slots
 * cluster.rejoin(old);                             // back, as promoted's replica
 * cluster.migrateSlot("orders", cluster.masters().get(0));
 * }</pre>
 *
 * <p>The group is shared by every test in the JVM: a test that kills, pauses or moves something
 * puts the cluster back in service before it ends ({@link #rejoin}, {@link #resumeShard}); the
 * slots it moved may stay where they are.
 */
public interface RedisClusterGroup {

    /**
     * A Lettuce-style Cluster URI naming the three nodes started as masters:
     * {@code redis-cluster://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3}. A client finds the rest of
     * the cluster from any of them that answers.
     *
     * @return the Cluster URI
     */
    String uri();

    /**
     * All six nodes, in a fixed order: the three started as masters, then their replicas.
     *
     * @return an unmodifiable list of the nodes
     */
    List<TestServer> nodes();

    /**
     * The nodes that serve slots now, as the answering nodes see them, in the order of {@link #nodes()}.
     *
     * @return the current masters
     * @throws TestServerException if no node answers
     */
    List<TestServer> masters();

    /**
     * The replica of a master now.
     *
     * @param master a current master
     * @return its replica
     * @throws TestServerException if it has none (its replica was promoted and it was not rejoined)
     */
    TestServer replicaOf(TestServer master);

    /**
     * The Cluster slot of a key, as the server computes it (hash tags included).
     *
     * @param key a Redis key
     * @return the slot, 0 to 16383
     */
    int slotOf(String key);

    /**
     * The master that serves a key's slot now.
     *
     * @param key a Redis key
     * @return the master
     * @throws TestServerException if no answering node names a master for the slot
     */
    TestServer masterOf(String key);

    /**
     * Kills a master (SIGKILL) and returns once its replica has been promoted and every serving
     * node agrees that the replica serves the slots and the cluster state is {@code ok}.
     *
     * @param master a current master with a replica
     * @return the promoted replica, now the master of those slots
     * @throws TestServerException if the promotion does not complete within 60 s
     */
    TestServer failOver(TestServer master);

    /**
     * Brings a node killed by {@link #failOver} (or {@link TestServer#kill()}) back: it restarts
     * with its old identity, and returns once it is a replica of the master that took its slots,
     * synced, and no node counts it as failing. Does nothing to a node that is running.
     *
     * @param node a node of this cluster
     * @throws TestServerException if it does not rejoin within 60 s
     */
    void rejoin(TestServer node);

    /**
     * Moves a key's slot, with every key in it, to another master: the target is set
     * {@code IMPORTING}, the owner {@code MIGRATING}, the keys are moved with {@code MIGRATE},
     * and the slot is assigned to the target ({@code SETSLOT … NODE}) on every master. Returns
     * once every serving node agrees on the new owner.
     *
     * @param key a key of the slot to move
     * @param toMaster a current master other than the slot's owner
     * @throws TestServerException if a step fails; the slot may then be left mid-migration
     */
    default void migrateSlot(String key, TestServer toMaster) {
        migrateSlot(key, toMaster, step -> {});
    }

    /**
     * Moves a key's slot as {@link #migrateSlot(String, TestServer)} does, calling {@code hook}
     * after each step and going on only when it returns: a test holds the migration there to act
     * in that window (at {@link MigrationStep#KEYS_MOVED}, the ASK window).
     *
     * @param key a key of the slot to move
     * @param toMaster a current master other than the slot's owner
     * @param hook called on the test's thread after each step
     * @throws TestServerException if a step fails (the slot may then be left mid-migration) or the hook
     *     throws (the migration is finished first; an {@link AssertionError} of the hook is rethrown as it is)
     */
    void migrateSlot(String key, TestServer toMaster, MigrationHook hook);

    /**
     * Freezes a master and its replica together (SIGSTOP), the replica told not to take over: a
     * shard that is unreachable as a whole, however long, without a failover.
     *
     * @param master a current master with a replica
     */
    void pauseShard(TestServer master);

    /**
     * Lets a {@linkplain #pauseShard paused} shard run again, and returns once no serving node
     * counts its master as failing; its replica may then take over again if the master dies.
     *
     * @param master the master given to {@link #pauseShard}
     * @throws TestServerException if the cluster does not take the master back within 60 s
     */
    void resumeShard(TestServer master);

    /** The steps of {@link #migrateSlot(String, TestServer, MigrationHook)} a hook is called after. */
    enum MigrationStep {
        /** The target imports and the owner migrates the slot; every key is still on the owner. */
        MARKED,
        /**
         * Every key of the slot is on the target, which the owner still is for the cluster: a
         * command for the slot gets {@code ASK} from the owner, a multi-key one {@code TRYAGAIN}
         * wherever some of its keys are missing.
         */
        KEYS_MOVED
    }

    /** Called after a step of a slot migration. */
    @FunctionalInterface
    interface MigrationHook {

        /**
         * Called once the step is done; the migration goes on when it returns.
         *
         * @param step the step just done
         * @throws Exception to abandon the migration where it stands
         */
        void reached(MigrationStep step) throws Exception;
    }
}
