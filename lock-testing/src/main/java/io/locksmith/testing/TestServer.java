package io.locksmith.testing;

/**
 * A running server a test talks to, with the controls a fault-injection test needs.
 *
 * <p>Obtained from {@link TestServers} or injected by {@link TestServersExtension}. A local server
 * is a child process of the test JVM on a free loopback port, with its data in a temporary
 * directory; it is started once per JVM and shared, so a test that breaks it ({@link #kill()},
 * {@link #pause()}) restores it ({@link #restart()}, {@link #resume()}) before it ends — the
 * extension does so after each test that took the server as a parameter.
 *
 * <pre>{@code
 * TestServer redis = TestServers.redis();
 * RedisClient client = RedisClient.create(redis.uri());   // redis://127.0.0.1:PORT
 * redis.pause();                                          // SIGSTOP: requests now hang
 * redis.resume();
 * }</pre>
 *
 * <p>Fault controls throw {@link UnsupportedOperationException} for a server this JVM does not
 * own: one named by a {@code LOCKSMITH_TEST_*_URI} variable or running in a container.
 */
public interface TestServer {

    /**
     * The backend this server belongs to.
     *
     * @return the backend, never {@code null}
     */
    Backend backend();

    /**
     * The URI a client connects with: {@code redis://127.0.0.1:P}, {@code etcd://127.0.0.1:P},
     * {@code zookeeper://127.0.0.1:P}, {@code jdbc:postgresql://127.0.0.1:P/postgres?user=postgres},
     * {@code jdbc:mariadb://127.0.0.1:P/test?user=root}, or for Azurite a blob connection string.
     *
     * @return the connection URI; it may carry well-known development credentials, so do not log it
     */
    String uri();

    /**
     * The host the server listens on.
     *
     * @return the host name or address, {@code 127.0.0.1} for a local server
     */
    String host();

    /**
     * The TCP port the server listens on; it stays the same across {@link #restart()}.
     *
     * @return the port
     */
    int port();

    /**
     * The server's version as the server reports it, for example {@code 7.0.15}.
     *
     * @return the version, or {@code "unknown"} where the server does not say
     */
    String version();

    /**
     * Whether this JVM started the server and so can control it.
     *
     * @return {@code true} for a child process; {@code false} for an external server or a container
     */
    boolean controllable();

    /**
     * Kills the server with SIGKILL (with any child processes) and returns once it is gone. Its
     * data directory stays for {@link #restart()}.
     *
     * @throws UnsupportedOperationException if the server is not {@linkplain #controllable() ours}
     */
    void kill();

    /**
     * Freezes the server and its child processes with SIGSTOP: connections stay open, requests
     * get no answer.
     *
     * @throws UnsupportedOperationException if the server is not {@linkplain #controllable() ours}
     * @throws IllegalStateException if the server was killed and not restarted
     */
    void pause();

    /**
     * Lets a {@linkplain #pause() paused} server run again with SIGCONT; does nothing otherwise.
     *
     * @throws UnsupportedOperationException if the server is not {@linkplain #controllable() ours}
     */
    void resume();

    /**
     * Starts the server again on the same port with the same data directory, killing it first if
     * it runs, and returns once it answers its protocol.
     *
     * @throws UnsupportedOperationException if the server is not {@linkplain #controllable() ours}
     * @throws TestServerException if it does not become ready in time; the message holds the
     *     tail of the server's log
     */
    void restart();
}
