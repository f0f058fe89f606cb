package io.locksmith.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.locksmith.LockBackendException;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.Redaction;
import io.locksmith.spi.ReleaseSignals;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Release signals over one pub/sub connection per client, multiplexed over every lock it waits
 * for: a key's channel is subscribed while a subscription to it is open, and each message on it
 * is reported to the client's one callback: a message naming an owner (a lock's release names the
 * first waiter of its queue) as {@link BackendEvents#released(String, String)}, which wakes only
 * that owner's wait, and an empty one (nobody queued; a semaphore or read-write lock changed) as
 * {@link BackendEvents#released(String)}, which the core hands to its waiters in turn.
 *
 * <p>Besides, the client listens on a wake channel of its own, {@code locksmith:wake:RANDOM},
 * subscribed with its first key and kept until it closes. Once the server confirmed it,
 * {@link #wakeChannel()} names it, and a waiting attempt records it beside its place in the
 * lock's queue; a release then names that waiter on this channel alone ({@code
 * "LENGTH:OWNERKEY"}, LENGTH the owner's length in UTF-8 bytes) rather than on the key's channel,
 * so that of all the clients waiting for a key only the next owner's wakes. The core subscribes once per key, but a closing subscription may
 * overlap the next one for the same key, so a channel counts its open subscriptions and is
 * unsubscribed when the last one closes.
 *
 * <p>{@link #subscribe} returns once the server confirmed the SUBSCRIBE (a release published
 * before that would be missed), but it waits outside this object's monitor: the monitor only
 * orders SUBSCRIBE and UNSUBSCRIBE on the wire, so closing a subscription never waits for another
 * one's slow reply. Only the client's first subscriber also waits for the pub/sub connection to
 * open, under a lock of its own.
 *
 * <p>A SUBSCRIBE the server refuses (an ACL user without rights on the channel gets NOPERM), or
 * that fails or times out, makes {@link #subscribe} throw {@link LockBackendException}: the core
 * then backs off instead of waiting for a signal. Each time Lettuce resubscribes after a
 * reconnect, the channel's key is reported released, since releases published meanwhile (a
 * restart without persistence frees every lock and publishes nothing) were not heard.
 */
final class RedisSignals implements ReleaseSignals, AutoCloseable {

    private static final long SLACK_NANOS =
            TimeUnit.SECONDS.toNanos(1); // past the command timeout, for Lettuce's own expiry

    private final Supplier<StatefulRedisPubSubConnection<String, String>> connect;
    private final String description;
    private final Duration timeout;
    private final BackendEvents events;
    private final Granted granted;
    private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();
    private final Object opening = new Object(); // held while the connection opens; never by close paths
    private volatile StatefulRedisPubSubConnection<String, String> connection;
    private boolean closed; // guarded by this
    private final String wake = "locksmith:wake:"
            + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    private CompletableFuture<Void> wakeConfirmation; // guarded by this
    private volatile boolean wakeConfirmed;

    RedisSignals(
            Supplier<StatefulRedisPubSubConnection<String, String>> connect,
            String description,
            Duration timeout,
            BackendEvents events,
            Granted granted) {
        this.connect = connect;
        this.description = description;
        this.timeout = timeout;
        this.events = events;
        this.granted = granted;
    }

    /** Where a grant that a release made one of this client's waiters goes, before its wake-up. */
    interface Granted {
        void granted(String key, String owner, long token);
    }

    @Override
    public Subscription subscribe(String key) {
        String name = RedisKeys.channel(key);
        StatefulRedisPubSubConnection<String, String> c;
        try {
            c = connection();
        } catch (RedisException e) {
            throw refused(key, e);
        }
        Channel channel;
        CompletableFuture<Void> confirmation;
        synchronized (this) {
            if (closed) {
                throw new io.locksmith.LockClientClosedException(null, description, null);
            }
            if (wakeConfirmation == null || wakeConfirmation.isCompletedExceptionally()) {
                // sent before the key's SUBSCRIBE, so confirmed before it: once subscribe returns,
                // waiting attempts name the wake channel. If it is refused, releases name this
                // client's waiters on the key's channel, as before; the next subscribe tries again.
                try {
                    wakeConfirmation = c.async().subscribe(wake).toCompletableFuture();
                    wakeConfirmation.thenRun(() -> wakeConfirmed = true);
                } catch (RedisException e) {
                    wakeConfirmation = CompletableFuture.failedFuture(e);
                }
            }
            channel = channels.computeIfAbsent(name, n -> new Channel(key));
            channel.open++;
            if (channel.confirmation == null) {
                // under the monitor so that a channel's SUBSCRIBE and UNSUBSCRIBE leave in order;
                // sending does not wait for the server
                try {
                    channel.confirmation = c.async().subscribe(name).toCompletableFuture();
                } catch (RedisException e) {
                    channel.confirmation = CompletableFuture.failedFuture(e);
                }
            }
            confirmation = channel.confirmation;
        }
        AtomicBoolean open = new AtomicBoolean(true);
        Subscription subscription = () -> {
            if (open.compareAndSet(true, false)) {
                unsubscribe(name, channel);
            }
        };
        try {
            confirmation.get(timeout.toNanos() + SLACK_NANOS, TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            subscription.close();
            throw refused(key, e instanceof ExecutionException ? e.getCause() : e);
        } catch (InterruptedException e) {
            subscription.close();
            Thread.currentThread().interrupt();
            throw new LockBackendException(
                    "subscribing to releases of '" + key + "' on " + description + " was interrupted", e);
        }
        return subscription;
    }

    /**
     * @return this client's wake channel once the server confirmed the subscription to it, else
     *     empty: a waiting attempt records it beside its place in the queue
     */
    String wakeChannel() {
        return wakeConfirmed ? wake : "";
    }

    private LockBackendException refused(String key, Throwable cause) {
        String why = cause instanceof TimeoutException
                ? "no confirmation within " + timeout.toMillis() + " ms"
                : Redaction.redact(String.valueOf(cause.getMessage()));
        String hint = why.contains("NOPERM")
                ? "; grant the user the lock channels (ACL SETUSER <user> &locksmith:*) to be woken by releases"
                : "";
        return new LockBackendException(
                "subscribing to releases of '" + key + "' on " + description + " failed: " + why + hint, cause);
    }

    private synchronized void unsubscribe(String name, Channel channel) {
        if (--channel.open > 0 || !channels.remove(name, channel)) {
            return;
        }
        StatefulRedisPubSubConnection<String, String> c = connection;
        if (c != null && !closed && !channel.confirmation.isCompletedExceptionally()) {
            try {
                c.async().unsubscribe(name); // no need to wait: late messages find no channel
            } catch (RedisException e) {
                // disconnected: the server forgets the subscription with the connection
            }
        }
    }

    private void released(String name) {
        released(name, "");
    }

    /**
     * A wake-up on this client's wake channel: {@code "LENGTH:OWNERKEY"}, LENGTH in UTF-8 bytes, or
     * {@code "=TOKEN:LENGTH:OWNERKEY"} when the release granted the owner the key under TOKEN.
     */
    private void woken(String message) {
        try {
            long token = 0;
            int from = 0;
            if (message.startsWith("=")) {
                from = message.indexOf(':');
                token = Long.parseLong(message, 1, from, 10);
                from++;
            }
            int colon = message.indexOf(':', from);
            int length = Integer.parseInt(message, from, colon, 10);
            byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
            int start = colon + 1; // everything before the owner is ASCII: one byte per character
            String owner = new String(bytes, start, length, StandardCharsets.UTF_8);
            String key = new String(bytes, start + length, bytes.length - start - length, StandardCharsets.UTF_8);
            if (token > 0) {
                granted.granted(key, owner, token);
            }
            events.released(key, owner);
        } catch (RuntimeException e) {
            // not a wake-up this version writes: the waiter's fallback poll still comes
        }
    }

    /** @param next the owner the key goes to next, as the lock's queue named it; empty if none */
    private void released(String name, String next) {
        Channel channel = channels.get(name);
        if (channel == null) {
            return;
        }
        if (next == null || next.isEmpty()) {
            events.released(channel.key);
        } else {
            events.released(channel.key, next);
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
                        if (name.equals(wake)) {
                            woken(message);
                        } else {
                            released(name, message);
                        }
                    }

                    @Override
                    public void subscribed(String name, long count) {
                        Channel channel = channels.get(name);
                        if (channel != null && !channel.confirmedOnce) {
                            channel.confirmedOnce = true; // its subscriber tries again once subscribe returns
                        } else {
                            released(name); // Lettuce resubscribed after a reconnect
                        }
                    }
                });
                synchronized (this) {
                    if (closed) {
                        opened.closeAsync();
                        throw new io.locksmith.LockClientClosedException(null, description, null);
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

    /** One channel: the key it signals for, its open subscriptions, and its SUBSCRIBE's confirmation. */
    private static final class Channel {
        final String key;
        int open; // guarded by RedisSignals.this
        CompletableFuture<Void> confirmation; // guarded by RedisSignals.this; set once
        volatile boolean confirmedOnce;

        Channel(String key) {
            this.key = key;
        }
    }
}
