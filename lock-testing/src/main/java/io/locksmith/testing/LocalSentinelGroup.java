package io.locksmith.testing;

import java.io.IOException;
import java.time.Duration;

/** A Redis master, its replica and a Sentinel, each a child process. */
final class LocalSentinelGroup implements RedisSentinelGroup {

    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);

    private final LocalServer master;
    private final LocalServer replica;
    private final LocalServer sentinel;

    LocalSentinelGroup(LocalServer master, LocalServer replica, LocalServer sentinel) {
        this.master = master;
        this.replica = replica;
        this.sentinel = sentinel;
    }

    /**
     * Starts the three and waits until the replica has synced and the Sentinel lists it as a healthy
     * replica, so a failover has a candidate. The Sentinel learns of replicas from the master's
     * INFO, which it reads every 10 s: a master killed before then leaves nothing to promote.
     */
    LocalSentinelGroup start() {
        long since = System.nanoTime();
        master.launch();
        replica.launch();
        sentinel.launch();
        master.awaitReady(since);
        replica.awaitReady(since);
        sentinel.awaitReady(since);
        long deadline = System.nanoTime() + SYNC_TIMEOUT.toNanos();
        while (true) {
            try {
                if (RedisRecipe.linkedToMaster(replica.port())
                        && RedisRecipe.sentinelKnowsReplica(sentinel.port(), replica.port())) {
                    return this;
                }
            } catch (IOException e) {
                // not yet
            }
            if (System.nanoTime() > deadline) {
                throw new TestServerException(
                        "the redis replica did not sync with its master, or the Sentinel did not list it, within "
                                + SYNC_TIMEOUT.toSeconds() + " s");
            }
            try {
                Thread.sleep(50); // the poll interval of a bounded wait
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TestServerException("interrupted while waiting for the replica to sync", e);
            }
        }
    }

    /** Puts every server a test broke back into service. */
    void heal() {
        master.heal();
        replica.heal();
        sentinel.heal();
    }

    @Override
    public TestServer master() {
        return master;
    }

    @Override
    public TestServer replica() {
        return replica;
    }

    @Override
    public TestServer sentinel() {
        return sentinel;
    }

    @Override
    public String masterName() {
        return RedisRecipe.MASTER_NAME;
    }

    @Override
    public String sentinelUri() {
        return "redis-sentinel://" + sentinel.host() + ":" + sentinel.port() + "#" + RedisRecipe.MASTER_NAME;
    }
}
