package io.locksmith.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A server that runs as a child process of this JVM, on a loopback port, controlled by signals. */
final class LocalServer implements TestServer {

    static final String HOST = "127.0.0.1";

    private static final Logger LOG = LoggerFactory.getLogger(LocalServer.class);
    // generous: a 2-core machine starting several servers at once is slow, and initdb runs first
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration POLL = Duration.ofMillis(50);

    private final String name;
    private final Recipe recipe;
    private final int port;
    private final Path dir;
    private final Path log;
    private boolean prepared;
    private ServerProcess process;
    private boolean paused;
    private volatile String version = "unknown";

    LocalServer(String name, Recipe recipe, int port) {
        this.name = name;
        this.recipe = recipe;
        this.port = port;
        this.dir = Reaper.newDirectory(name);
        this.log = dir.resolve(name + ".log");
    }

    /** Starts the process without waiting, so that cluster members can start side by side. */
    synchronized void launch() {
        if (!prepared) {
            try {
                recipe.prepare(dir, port);
            } catch (IOException e) {
                throw new TestServerException(
                        "could not prepare " + name + " in " + dir + ": " + e.getMessage() + "\n--- last lines of "
                                + log + " ---\n" + ServerProcess.tail(log, 40),
                        e);
            }
            prepared = true;
        }
        process = ServerProcess.start(recipe.command(dir, port), log, dir);
        paused = false;
    }

    /** Waits until the server answers its protocol, then logs how long it took since {@code since}. */
    void awaitReady(long since) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            ServerProcess current = currentProcess();
            if (current == null || !current.isAlive()) {
                throw failure(name + " exited while starting", null);
            }
            try {
                if (recipe.ready(port)) {
                    try {
                        version = recipe.version(port);
                    } catch (IOException | RuntimeException e) {
                        LOG.debug("{} did not say its version", name, e);
                    }
                    LOG.info(
                            "{} {} ready on {}:{} in {} ms (pid {})",
                            name,
                            version,
                            HOST,
                            port,
                            (System.nanoTime() - since) / 1_000_000,
                            current.pid());
                    return;
                }
            } catch (IOException | RuntimeException e) {
                last = e;
            }
            try {
                Thread.sleep(POLL.toMillis()); // the poll interval of a bounded readiness wait
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TestServerException("interrupted while waiting for " + name, e);
            }
        }
        throw failure(
                name + " did not answer on " + HOST + ":" + port + " within " + READY_TIMEOUT.toSeconds() + " s"
                        + (last == null ? "" : " (last attempt: " + last + ")"),
                last);
    }

    /** Starts the server and waits until it is ready. */
    void start() {
        long since = System.nanoTime();
        launch();
        awaitReady(since);
    }

    private TestServerException failure(String message, Exception cause) {
        return new TestServerException(
                message + "\n--- last lines of " + log + " ---\n" + ServerProcess.tail(log, 40), cause);
    }

    private synchronized ServerProcess currentProcess() {
        return process;
    }

    /** The pid of the running server process, or -1 when it is not running. */
    synchronized long pid() {
        return process != null && process.isAlive() ? process.pid() : -1;
    }

    /** The directory holding the server's data and log. */
    Path directory() {
        return dir;
    }

    /** The server's name in logs, such as {@code etcd-2}. */
    String name() {
        return name;
    }

    /** Whether the server runs and is not paused. */
    synchronized boolean serving() {
        return process != null && process.isAlive() && !paused;
    }

    /** Puts a server a test broke back into service: resumes it, or restarts it if it is gone. */
    synchronized void heal() {
        if (process != null && process.isAlive()) {
            resume();
        } else {
            LOG.info("restarting {} after the test left it down", name);
            restart();
        }
    }

    @Override
    public Backend backend() {
        return recipe.backend();
    }

    @Override
    public String uri() {
        return recipe.uri(port);
    }

    @Override
    public String host() {
        return HOST;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public boolean controllable() {
        return true;
    }

    @Override
    public synchronized void kill() {
        if (process != null) {
            boolean wasRunning = process.isAlive();
            process.kill();
            process = null;
            paused = false;
            if (wasRunning) {
                LOG.info("{} killed (SIGKILL)", name);
            }
        }
    }

    @Override
    public synchronized void pause() {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException(name + " is not running; restart() it before pausing it");
        }
        process.signal("STOP");
        paused = true;
        LOG.info("{} paused (SIGSTOP)", name);
    }

    @Override
    public synchronized void resume() {
        if (paused && process != null && process.isAlive()) {
            process.signal("CONT");
            LOG.info("{} resumed (SIGCONT)", name);
        }
        paused = false;
    }

    @Override
    public synchronized void restart() {
        kill();
        start();
    }

    @Override
    public String toString() {
        return name + "@" + HOST + ":" + port;
    }
}
