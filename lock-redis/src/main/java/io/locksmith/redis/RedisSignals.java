package io.locksmith.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.locksmith.spi.Redaction;
import io.locksmith.spi.ReleaseSignals;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Release signals over one pub/sub connection per client, multiplexed over every lock it waits
 * for: a channel is subscribed while at least one listener listens on it.
 *
 * <p>Nothing here waits for the server while holding this object's monitor, and closing a
 * subscription never waits at all: the core closes subscriptions from its timer thread (a
 * wait's deadline), which also runs every renewal of the client. So SUBSCRIBE is sent
 * asynchronously and {@link #subscribe} returns before the server confirmed it; each time the
 * server confirms it (the first time, and again after Lettuce resubscribes on a reconnect) the
 * channel's listeners are woken once, because a release published before the confirmation was
 * not heard. Only the first subscriber of a client may wait, for the pub/sub connection to open.
 *
 * <p>A SUBSCRIBE the server refuses (an ACL user without rights on the channel gets NOPERM) or
 * that fails otherwise marks the channel unsignalled until its last listener leaves; its
 * listeners are woken once so that they learn it: {@link RedisBackend#tryAcquire} then withholds
 * the holder's remaining lease, and the core backs off instead of sleeping through the lease for
 * a signal that cannot come.
 */
final class RedisSignals implements ReleaseSignals, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisSignals.class);

    private final Supplier<StatefulRedisPubSubConnection<String, String>> connect;
    private final String description;
    private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();
    private final Object opening = new Object(); // held while the connection opens; never by close paths
    private final AtomicBoolean warned = new AtomicBoolean();
    private volatile StatefulRedisPubSubConnection<String, String> connection;
    private boolean closed; // guarded by this

    RedisSignals(Supplier<StatefulRedisPubSubConnection<String, String>> connect, String description) {
        this.connect = connect;
        this.description = description;
    }

    @Override
    public Subscription subscribe(String key, Runnable onRelease) {
        String name = RedisKeys.channel(key);
        StatefulRedisPubSubConnection<String, String> c;
        RuntimeException unavailable = null;
        try {
            c = connection();
        } catch (RedisException e) {
            c = null;
            unavailable = e;
        }
        Channel channel;
        RedisFuture<Void> confirmation = null;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the Redis lock client is closed");
            }
            channel = channels.computeIfAbsent(name, n -> new Channel());
            channel.listeners.add(onRelease);
            if (!channel.requested) {
                channel.requested = true;
                try {
                    // under the monitor so that SUBSCRIBE and UNSUBSCRIBE of a channel leave in order;
                    // sending does not wait for the server
                    confirmation = c == null ? null : c.async().subscribe(name);
                } catch (RedisException e) {
                    unavailable = e;
                }
                if (confirmation == null) {
                    refuse(channel, unavailable);
                }
            }
        }
        if (confirmation != null) {
            Channel subscribed = channel;
            confirmation.whenComplete((ok, failure) -> settled(name, subscribed, failure));
        }
        return () -> unsubscribe(name, channel, onRelease);
    }

    /** @return whether releases of the key cannot be signalled: its channel's SUBSCRIBE failed */
    boolean unsignalled(String key) {
        Channel channel = channels.get(RedisKeys.channel(key));
        return channel != null && channel.refused;
    }

    /** A refused SUBSCRIBE wakes the listeners so that they back off; a confirmed one wakes them in {@link #wake}. */
    private void settled(String name, Channel channel, Throwable failure) {
        if (failure != null) {
            refuse(channel, failure);
            if (channels.get(name) == channel) {
                channel.listeners.forEach(Runnable::run);
            }
        }
    }

    private void wake(String name) {
        Channel channel = channels.get(name);
        if (channel != null) {
            channel.listeners.forEach(Runnable::run);
        }
    }

    private void refuse(Channel channel, Throwable cause) {
        channel.refused = true;
        String why = cause == null ? "no pub/sub connection" : Redaction.redact(String.valueOf(cause.getMessage()));
        boolean denied = why.contains("NOPERM");
        if (isClosed()) {
            return; // a SUBSCRIBE the closing connection cut short: nobody waits any more
        }
        if (warned.compareAndSet(false, true)) {
            log.warn("release signals are unavailable on {} ({}); waiters back off and retry instead of being woken"
                    + " by releases{}", description, why,
                    denied ? " (grant the user rights on the locksmith:* channels to restore them)" : "");
        } else {
            log.debug("release signals are unavailable on {} ({})", description, why);
        }
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private synchronized void unsubscribe(String name, Channel channel, Runnable onRelease) {
        if (!channel.listeners.remove(onRelease) || !channel.listeners.isEmpty() || !channels.remove(name, channel)) {
            return;
        }
        StatefulRedisPubSubConnection<String, String> c = connection;
        if (c != null && !closed && !channel.refused) {
            try {
                c.async().unsubscribe(name); // no need to wait: late messages find no listener
            } catch (RedisException e) {
                // disconnected: the server forgets the subscription with the connection
            }
        }
    }

    private StatefulRedisPubSubConnection<String, String> connection() {
        StatefulRedisPubSubConnection<String, String> c = connection;
        if (c != null) {
            return c;
        }
        synchronized (opening) {
            if (connection == null) {
                StatefulRedisPubSubConnection<String, String> opened = connect.get();
                opened.addListener(new RedisPubSubAdapter<>() {
                    @Override
                    public void message(String name, String message) {
                        wake(name);
                    }

                    // the server confirmed a subscription: the first one, or Lettuce's resubscription
                    // after a reconnect; releases published before it were not heard (a restart
                    // without persistence frees every lock and publishes nothing)
                    @Override
                    public void subscribed(String name, long count) {
                        wake(name);
                    }
                });
                synchronized (this) {
                    if (closed) {
                        opened.closeAsync();
                        throw new IllegalStateException("the Redis lock client is closed");
                    }
                    connection = opened;
                }
            }
            return connection;
        }
    }

    @Override
    public void close() {
        StatefulRedisPubSubConnection<String, String> c;
        synchronized (this) {
            closed = true;
            c = connection;
        }
        if (c != null) {
            c.close();
        }
    }

    /** One channel's listeners, and what became of its SUBSCRIBE. */
    private static final class Channel {
        final Set<Runnable> listeners = ConcurrentHashMap.newKeySet();
        boolean requested; // guarded by RedisSignals.this
        volatile boolean refused;
    }
}
