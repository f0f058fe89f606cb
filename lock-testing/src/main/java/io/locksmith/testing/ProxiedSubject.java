package io.locksmith.testing;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.tck.Faults;
import io.locksmith.tck.TckSubject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The kit's subject for a backend reached over TCP, with the connection faults every such
 * backend shares: each client the kit opens talks to the server through a {@link TcpProxy} of
 * its own, opened from a URI with {@link LockClient#open(String, LockOptions,
 * java.util.function.UnaryOperator)} by whichever provider claims it; {@link #cutConnection},
 * {@link #restoreConnection} and {@link #delayReplies} act on that proxy, {@link #crash} closes it
 * for good, and {@link #restartServer()} restarts the {@link TestServer}. A client's proxy closes
 * with the client.
 *
 * <p>A subclass names the backend's capabilities, its {@link #secretUri()} (with
 * {@link #unreachableAddress()} for its unreachable twin), and adds the faults only it can make
 * (removing a lock's state, a queue's entries) by overriding the {@link Faults} methods: the
 * subject is its own {@link #faults()}.
 *
 * <pre>{@code
 * final class EtcdSubject extends ProxiedSubject {
 *     EtcdSubject(TestServer server) {
 *         super("etcd", server, address -> "etcd://" + address + "?timeout=2s");
 *     }
 *
 *     public Capabilities capabilities() { ... }
 *
 *     public void removeLockState(String key) { ... an admin client deletes the key ... }
 * }
 * }</pre>
 *
 * <p>Where a client library takes a dropped connection worse than the test means (a reconnect
 * back-off longer than the kit's cut), a subclass cuts by stalling the client's calls instead:
 * every backend is opened behind a {@link StallingBackend}, reached with {@link #stalls(LockClient)}.
 */
public abstract class ProxiedSubject implements TckSubject, Faults {

    /** How long a stalled call waits before it fails: the operation timeout the kit's URIs set. */
    public static final Duration STALL_BOUND = Duration.ofSeconds(2);

    private final String name;
    private final TestServer server;
    private final Function<String, String> uri;
    private final Map<LockClient, Connection> connections = new ConcurrentHashMap<>();
    private RefusingPort refusing; // reserved on first use, for the subject's life

    /**
     * @param name the provider's name, for the kit's messages
     * @param server the server every client reaches through its own proxy
     * @param uri makes a client's lock URI from its proxy's {@code host:port}, with the options
     *     the subject wants (an operation timeout below the kit's waits)
     */
    protected ProxiedSubject(String name, TestServer server, Function<String, String> uri) {
        this.name = Objects.requireNonNull(name, "name");
        this.server = Objects.requireNonNull(server, "server");
        this.uri = Objects.requireNonNull(uri, "uri");
    }

    @Override
    public final String name() {
        return name;
    }

    /** @return the server behind the proxies */
    protected final TestServer server() {
        return server;
    }

    /** Opens a client through a new proxy of its own; the proxy closes with the client. */
    @Override
    public final LockClient newClient(LockOptions options) {
        TcpProxy proxy;
        try {
            proxy = new TcpProxy(server.host(), server.port());
        } catch (IOException e) {
            throw new UncheckedIOException("[" + name + "] kit subject: cannot start a proxy for a new client", e);
        }
        Connection[] opened = new Connection[1];
        LockClient client;
        try {
            client = LockClient.open(
                    uri.apply(proxy.address()),
                    options,
                    backend -> opened[0] = new Connection(new StallingBackend(backend, STALL_BOUND), proxy));
        } catch (RuntimeException e) {
            proxy.close();
            throw e;
        }
        connections.put(client, opened[0]);
        return client;
    }

    /**
     * @return {@code 127.0.0.1:PORT} where nothing answers and connections are refused at once,
     *     the same for the subject's life: for the unreachable twin of {@link #secretUri()}
     */
    protected final synchronized String unreachableAddress() {
        if (refusing == null) {
            refusing = new RefusingPort();
        }
        return "127.0.0.1:" + refusing.port();
    }

    /** @return this subject: its connection faults, and the backend's own its subclass adds */
    @Override
    public final Faults faults() {
        return this;
    }

    /**
     * @param client a client this subject opened
     * @return the proxy the client talks to the server through
     */
    protected final TcpProxy proxy(LockClient client) {
        return connection(client).proxy;
    }

    /**
     * @param client a client this subject opened
     * @return the decorator every call of the client's backend passes, to stall them
     */
    protected final StallingBackend stalls(LockClient client) {
        return connection(client).stalls;
    }

    /** Drops the client's connections and refuses new ones: its calls fail until restored. */
    @Override
    public void cutConnection(LockClient client) {
        proxy(client).cut();
    }

    @Override
    public void restoreConnection(LockClient client) {
        proxy(client).restore();
    }

    @Override
    public void delayReplies(LockClient client, Duration delay) {
        proxy(client).delayReplies(delay);
    }

    /** Closes the client's proxy for good, then the client: nothing it sends reaches the server again. */
    @Override
    public void crash(LockClient client) {
        proxy(client).close();
        client.close();
    }

    /** Restarts the server on its address; the proxies reach it again once it answers. */
    @Override
    public void restartServer() {
        server.restart();
    }

    /** Closes the proxies of the clients still open; a subclass closes its own connections too. */
    @Override
    public void close() {
        List.copyOf(connections.values()).forEach(c -> c.proxy.close());
        synchronized (this) {
            if (refusing != null) {
                refusing.close();
            }
        }
    }

    private Connection connection(LockClient client) {
        Connection c = connections.get(client);
        if (c == null) {
            throw new IllegalArgumentException(
                    "[" + name + "] kit subject: the client of " + client.backend() + " was not opened by it");
        }
        return c;
    }

    /** A client's backend: its calls pass the stall; closing it closes the proxy too. */
    private final class Connection extends ForwardingLockBackend {
        final StallingBackend stalls;
        final TcpProxy proxy;

        Connection(StallingBackend stalls, TcpProxy proxy) {
            super(stalls);
            this.stalls = stalls;
            this.proxy = proxy;
        }

        @Override
        public void close() {
            try {
                super.close();
            } finally {
                // the client stays known: a hook a rule calls on it once closed (a restore in a
                // finally) acts on a closed proxy, which does nothing, rather than failing the rule
                proxy.close();
            }
        }

        @Override
        public String toString() {
            return "Connection[" + description() + " through " + proxy.address() + "]";
        }
    }

    /** @return {@code name[server]}, for messages */
    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + ", " + server.host() + ":" + server.port() + "]";
    }
}
