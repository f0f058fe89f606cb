package io.locksmith.etcd;

import io.etcd.jetcd.Client;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.locksmith.spi.BackendScheduler;
import io.locksmith.spi.Ticker;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the client's gRPC channel from sleeping through a cluster that came back.
 *
 * <p>Two things keep a channel away from a cluster that answers again, and jetcd, which waits for
 * a ready channel on every call, inherits both:
 * <ul>
 *   <li>gRPC reconnects with an exponential back-off (1 s, growing by 1.6 up to 2 min): after a few
 *       seconds of refused connections the next attempt lies seconds away, so the first calls after
 *       the cluster is back (a lease grant, a release) time out although etcd would answer at once.
 *       Neither jetcd nor gRPC lets a client set that back-off, but a channel in transient failure
 *       may be told to try now ({@link ManagedChannel#resetConnectBackoff()}).
 *   <li>a connection that is accepted but never answers (a member still starting behind a proxy or
 *       a load balancer, a half-open path) leaves the channel connecting with no end: the connect
 *       timeout covers only TCP, and gRPC's keep-alive, at 10 s or more, is longer than a lease.
 *       A channel still connecting after the call timeout is sent idle
 *       ({@link ManagedChannel#enterIdle()}), which drops that connection; the calls waiting for it
 *       make it connect afresh.
 * </ul>
 * The channel is checked every {@link #CHECK}, on the client's scheduler, which bounds how long a
 * cluster that came back goes unnoticed.
 *
 * <p>jetcd does not hand out its channel, so it is read from the client by reflection; a jetcd
 * whose internals differ only loses this shortcut (and logs that), never a call.
 */
final class EtcdReconnect {

    private static final Logger log = LoggerFactory.getLogger(EtcdReconnect.class);

    /** A quarter of the shortest lease: a member back within a lease is reached with most of it left. */
    static final Duration CHECK = EtcdBackend.MINIMUM_LEASE.dividedBy(4);

    private final ManagedChannel channel;
    private final Ticker ticker;
    private final long connectLimitNanos;
    /** Whether the channel was seen connecting in the last check, and since when (the client's ticker). */
    private boolean connecting;

    private long connectingSinceNanos;

    private EtcdReconnect(ManagedChannel channel, Ticker ticker, Duration connectLimit) {
        this.channel = channel;
        this.ticker = ticker;
        this.connectLimitNanos = connectLimit.toNanos();
    }

    /**
     * Starts checking the client's channel.
     *
     * @param connectLimit how long a connection attempt may go unanswered: the call timeout
     * @return the periodic check, to cancel when the backend closes; one that does nothing if this
     *     jetcd's channel cannot be reached
     */
    static BackendScheduler.Scheduled keep(
            Client client, BackendScheduler scheduler, Ticker ticker, Duration connectLimit) {
        Optional<ManagedChannel> channel = channelOf(client);
        if (channel.isEmpty()) {
            return () -> {};
        }
        EtcdReconnect reconnect = new EtcdReconnect(channel.get(), ticker, connectLimit);
        return scheduler.every(reconnect::check, CHECK);
    }

    /** Runs on the client's workers, one run at a time ({@link BackendScheduler#every}). */
    private synchronized void check() {
        if (channel.isShutdown()) {
            return;
        }
        ConnectivityState state = channel.getState(false);
        if (state != ConnectivityState.CONNECTING) {
            connecting = false;
            if (state == ConnectivityState.TRANSIENT_FAILURE) {
                channel.resetConnectBackoff();
            }
            return;
        }
        long now = ticker.nanoTime();
        if (!connecting) {
            connecting = true;
            connectingSinceNanos = now;
        } else if (now - connectingSinceNanos > connectLimitNanos) {
            connecting = false;
            log.debug(
                    "the connection to etcd got no answer for {} ms: connecting afresh",
                    TimeUnit.NANOSECONDS.toMillis(connectLimitNanos));
            channel.enterIdle();
        }
    }
    /** @return jetcd's channel ({@code ClientImpl.connectionManager.getChannel()}), if this jetcd has one there */
    private static Optional<ManagedChannel> channelOf(Client client) {
        try {
            Field manager = client.getClass().getDeclaredField("connectionManager");
            manager.setAccessible(true);
            Object connections = manager.get(client);
            Method getChannel = connections.getClass().getDeclaredMethod("getChannel");
            getChannel.setAccessible(true);
            return Optional.of((ManagedChannel) getChannel.invoke(connections));
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.info(
                    "cannot reach the gRPC channel of {} ({}): after an outage, calls to etcd wait for gRPC's own"
                            + " reconnect back-off, which grows to minutes",
                    client.getClass().getName(),
                    EtcdCalls.message(e));
            return Optional.empty();
        }
    }
}
