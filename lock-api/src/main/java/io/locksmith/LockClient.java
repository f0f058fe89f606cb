package io.locksmith;

import io.locksmith.internal.ClientFactory;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The entry point: a connection to one lock backend, from which named locks are taken.
 *
 * <p>Open one client per application and backend, share it between threads, and close it on
 * shutdown. Closing releases every lock it still holds. A client owns the connections it opened;
 * a client built by a backend module around an existing client object (a {@code RedisClient},
 * a {@code DataSource}) leaves that object open.
 *
 * <pre>{@code
 * try (LockClient locks = LockClient.open("redis://localhost:6379?lease=10s")) {
 *     DistributedLock lock = locks.lock("order:12345");
 *     try (LockHandle held = lock.acquire(Duration.ofSeconds(10))) {
 *         process(order, held.fencingToken());
 *     }
 * }
 * }</pre>
 *
 * <p>The URI's scheme picks the provider found on the class path ({@code memory:},
 * {@code redis://}, {@code etcd://}, {@code zookeeper://}, {@code azblob://}, {@code jdbc:}).
 * Options ride as query parameters ({@link LockOptions#OPTION_NAMES} plus the backend's own).
 */
public interface LockClient extends AutoCloseable {

    /**
     * Opens a client for the backend the URI names, with default options.
     *
     * @param uri for example {@code "memory:"} or {@code "redis://localhost:6379?lease=10s"}
     * @return an open client
     * @throws NullPointerException if {@code uri} is null
     * @throws LockConfigurationException if the URI is malformed, has unknown options, or no
     *     single provider claims its scheme
     * @throws LockBackendException if the backend cannot be reached
     */
    static LockClient open(String uri) {
        return ClientFactory.open(uri, LockOptions.defaults(), Map.of());
    }

    /**
     * Opens a client with options set in code. Options in the URI's query take precedence over
     * these.
     *
     * @param uri the backend's URI
     * @param options the client-wide defaults
     * @return an open client
     * @throws LockConfigurationException see {@link #open(String)}
     * @throws LockBackendException if the backend cannot be reached
     */
    static LockClient open(String uri, LockOptions options) {
        return ClientFactory.open(uri, options, Map.of());
    }

    /**
     * Opens a client with options given as text, as they would appear in the URI's query: both
     * {@link LockOptions#OPTION_NAMES} and the backend's own (a user, a table name). Naming the
     * same option in the URI and in the map is an error.
     *
     * @param uri the backend's URI
     * @param options option names to values
     * @return an open client
     * @throws LockConfigurationException see {@link #open(String)}
     * @throws LockBackendException if the backend cannot be reached
     */
    static LockClient open(String uri, Map<String, String> options) {
        return ClientFactory.open(uri, LockOptions.defaults(), options);
    }

    /**
     * Opens a client with options from {@link Properties}, as {@link #open(String, Map)} does.
     *
     * @param uri the backend's URI
     * @param options option names to values
     * @return an open client
     */
    static LockClient open(String uri, Properties options) {
        return ClientFactory.open(uri, LockOptions.defaults(), ClientFactory.toMap(options));
    }

    /**
     * Opens a client from the environment: the system property {@code locksmith.uri}, else the
     * environment variable {@code LOCKSMITH_URI}.
     *
     * @return an open client
     * @throws LockConfigurationException if neither is set, or as {@link #open(String)}
     */
    static LockClient fromEnvironment() {
        return ClientFactory.fromEnvironment();
    }

    /**
     * Builds a client around a backend that a provider module makes from an existing client object.
     * Backend modules expose typed factories for this (for example one taking a Lettuce
     * {@code RedisClient}); this is what they call.
     *
     * @param backend makes the backend, given its context (the event sink, the client's scheduler,
     *     clock and table of held leases; no location or options); the client closes the backend
     *     when the client is closed
     * @param options the client-wide options
     * @return an open client
     */
    static LockClient of(Function<BackendContext, LockBackend> backend, LockOptions options) {
        return ClientFactory.wrap(backend, options);
    }

    /**
     * Opens a client as {@link #open(String, LockOptions)} does, with the provider's backend wrapped
     * by a decorator before the client uses it: to count, delay or fail its calls in a test, or to
     * instrument them. Extend {@link io.locksmith.spi.ForwardingLockBackend} and override the calls
     * to change. If the decorator throws, the provider's backend is closed.
     *
     * @param uri the lock URI
     * @param options options set in code; the URI's query options override them
     * @param decorator wraps the backend the provider opened; the client closes what it returns
     * @return an open client
     * @throws LockConfigurationException if the URI or an option is invalid
     * @throws LockBackendException if the backend cannot be reached
     */
    static LockClient open(String uri, LockOptions options, UnaryOperator<LockBackend> decorator) {
        return ClientFactory.open(uri, options, Map.of(), decorator);
    }

    /**
     * Returns the lock of the given name, with this client's options. Cheap: no backend call is
     * made until the lock is acquired.
     *
     * @param name any non-empty string of at most 1,024 characters (code points)
     * @return the lock
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty, too long, or not valid UTF-16
     * @throws IllegalStateException if the client is closed
     */
    DistributedLock lock(String name);

    /**
     * Returns the counting semaphore of the given name: at most {@code permits} holders at a time.
     * Cheap: no backend call is made until a permit is taken.
     *
     * @param name as for {@link #lock(String)}; a semaphore's names are its own
     * @param permits how many holders it admits at a time; every holder must give the same number
     * @return the semaphore
     * @throws IllegalArgumentException if the name is invalid or {@code permits} is below 1
     * @throws UnsupportedOperationException if the backend keeps no semaphores
     * @throws IllegalStateException if the client is closed
     */
    default DistributedSemaphore semaphore(String name, int permits) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no semaphores");
    }

    /**
     * Returns the read-write lock of the given name: many readers, or one writer.
     *
     * @param name as for {@link #lock(String)}; a read-write lock's names are its own
     * @return the read-write lock
     * @throws IllegalArgumentException if the name is invalid
     * @throws UnsupportedOperationException if the backend keeps no read-write locks
     * @throws IllegalStateException if the client is closed
     */
    default DistributedReadWriteLock readWriteLock(String name) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no read-write locks");
    }

    /**
     * Returns a participant in the leader election of the given name; it stands once
     * {@link LeaderElection#start() started}. Leadership is the lock of that name.
     *
     * @param name as for {@link #lock(String)}
     * @param identity how this participant is known to others (a host name, a pod name): 1 to 64
     *     bytes of UTF-8, no control characters
     * @return the participant, not yet standing
     * @throws IllegalArgumentException if the name or identity is invalid
     * @throws IllegalStateException if the client is closed
     */
    default LeaderElection leaderElection(String name, String identity) {
        throw new UnsupportedOperationException(getClass().getName() + " holds no elections");
    }

    /**
     * Returns the rate limiter of the given name: at most {@code permits} grants in any window of
     * length {@code per}.
     *
     * @param name as for {@link #lock(String)}; shared with the semaphore of that name
     * @param permits how many grants a window admits
     * @param per the window; within the backend's lease bounds
     * @return the rate limiter
     * @throws IllegalArgumentException if an argument is invalid
     * @throws LockConfigurationException if {@code per} is outside the leases the backend can keep
     * @throws UnsupportedOperationException if the backend keeps no semaphores
     * @throws IllegalStateException if the client is closed
     */
    default RateLimiter rateLimiter(String name, int permits, Duration per) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no semaphores");
    }

    /**
     * Registers a listener for what this client's locks do (acquisitions, holds, releases, losses,
     * renewals); for metrics and tracing. Costs nothing measurable when none is registered.
     *
     * @param listener the listener
     * @return the registration; closing it removes the listener
     * @throws IllegalStateException if the client is closed
     * @throws UnsupportedOperationException if this is not a client the core made (a test double)
     */
    default LockListener.Registration addListener(LockListener listener) {
        throw new UnsupportedOperationException(getClass().getName() + " does not report to listeners");
    }

    /** @return the options this client applies to its locks */
    LockOptions options();

    /** @return the backend's description, such as {@code redis://cache-1:6379/0}; never credentials */
    String backend();

    /**
     * Releases every lock this client still holds, stops renewal, and closes the connections it
     * owns. Idempotent. Acquisitions still waiting fail.
     */
    @Override
    void close();
}
