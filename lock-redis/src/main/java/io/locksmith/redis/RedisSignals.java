package io.locksmith.redis;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.locksmith.spi.ReleaseSignals;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Release signals over one pub/sub connection per client, multiplexed over every lock it waits
 * for: a channel is subscribed while at least one waiter listens on it.
 */
final class RedisSignals implements ReleaseSignals, AutoCloseable {

    private final Supplier<StatefulRedisPubSubConnection<String, String>> connect;
    private final ConcurrentHashMap<String, Set<Runnable>> listeners = new ConcurrentHashMap<>();
    private StatefulRedisPubSubConnection<String, String> connection;
    private boolean closed;

    RedisSignals(Supplier<StatefulRedisPubSubConnection<String, String>> connect) {
        this.connect = connect;
    }

    @Override
    public Subscription subscribe(String key, Runnable onRelease) {
        String channel = RedisKeys.channel(key);
        synchronized (this) {
            Set<Runnable> set = listeners.computeIfAbsent(channel, c -> ConcurrentHashMap.newKeySet());
            set.add(onRelease);
            if (set.size() == 1) {
                // wait for the server's confirmation: a release published before it would be missed
                connection().sync().subscribe(channel);
            }
        }
        return () -> unsubscribe(channel, onRelease);
    }

    private synchronized void unsubscribe(String channel, Runnable onRelease) {
        Set<Runnable> set = listeners.get(channel);
        if (set == null || !set.remove(onRelease) || !set.isEmpty()) {
            return;
        }
        listeners.remove(channel);
        if (connection != null && !closed) {
            connection.async().unsubscribe(channel); // no need to wait: late messages find no listener
        }
    }

    private StatefulRedisPubSubConnection<String, String> connection() {
        if (closed) {
            throw new IllegalStateException("the Redis lock client is closed");
        }
        if (connection == null) {
            connection = connect.get();
            connection.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    Set<Runnable> set = listeners.get(channel);
                    if (set != null) {
                        set.forEach(Runnable::run);
                    }
                }
            });
        }
        return connection;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (connection != null) {
            connection.close();
        }
    }
}
