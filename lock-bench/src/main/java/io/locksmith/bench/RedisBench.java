package io.locksmith.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.locksmith.LockClient;
import io.locksmith.testing.TestServer;
import java.util.UUID;

/**
 * Redis; its floor is what a hand-written lock costs with the same Lettuce client: {@code SET NX
 * PX} and a compare-and-delete script run by SHA, two round trips.
 */
final class RedisBench implements BackendBench {

    private static final String COMPARE_AND_DELETE =
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

    private final TestServer server;
    private final RedisClient floorClient;
    private final StatefulRedisConnection<String, String> floorConnection;

    RedisBench(TestServer server) {
        this.server = server;
        this.floorClient = RedisClient.create(server.uri());
        this.floorConnection = floorClient.connect();
    }

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public String version() {
        return "redis-server " + server.version();
    }

    @Override
    public LockClient client() {
        return LockClient.open(server.uri());
    }

    @Override
    public String uri() {
        return server.uri();
    }

    @Override
    public Floor floor() {
        RedisCommands<String, String> redis = floorConnection.sync();
        String sha = redis.scriptLoad(COMPARE_AND_DELETE);
        return new Floor() {
            @Override
            public void pair(String key) {
                redis.set(key, "owner", SetArgs.Builder.nx().px(30_000));
                redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {key}, "owner");
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public FloorConnection floorConnection() {
        StatefulRedisConnection<String, String> connection = floorClient.connect();
        RedisCommands<String, String> redis = connection.sync();
        String sha = redis.scriptLoad(COMPARE_AND_DELETE);
        String owner = UUID.randomUUID().toString();
        return new FloorConnection() {
            @Override
            public boolean tryAcquire(String key) {
                // SET NX answers null when the key was already there
                return redis.set(key, owner, SetArgs.Builder.nx().px(30_000)) != null;
            }

            @Override
            public void release(String key) {
                redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {key}, owner);
            }

            @Override
            public void close() {
                connection.close();
            }
        };
    }

    @Override
    public Runnable roundTrip() {
        RedisCommands<String, String> redis = floorConnection.sync();
        return redis::ping;
    }

    @Override
    public void close() {
        floorConnection.close();
        floorClient.shutdown();
    }
}
