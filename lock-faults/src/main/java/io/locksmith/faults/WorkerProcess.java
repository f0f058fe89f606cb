package io.locksmith.faults;

import io.locksmith.testing.TcpProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Worker} in a JVM of its own, on this JVM's class path. The backend's URI goes in the
 * environment, never on the command line, where {@code ps} would show its credentials. The JVM is
 * kept small: a run has several on two cores.
 */
final class WorkerProcess implements RunningWorker {

    private static final List<String> JVM_OPTIONS = List.of(
            "-Xmx64m",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-Xshare:auto",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    private final String id;
    private final Process process;
    private final Optional<TcpProxy> proxy;

    private WorkerProcess(String id, Process process, Optional<TcpProxy> proxy) {
        this.id = id;
        this.process = process;
        this.proxy = proxy;
    }

    /**
     * Starts a worker process.
     *
     * @param settings its settings
     * @param uri      the backend's URI (through the proxy, if one is given)
     * @param proxy    the worker's own proxy to the server, for the cut nemeses
     * @param output   where its standard output and error go
     * @return the running worker
     */
    static WorkerProcess start(WorkerSettings settings, String uri, Optional<TcpProxy> proxy, Path output) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Worker.class.getName());
        command.addAll(settings.toArgs());
        ProcessBuilder pb =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().put(WorkerSettings.URI_VARIABLE, uri);
        try {
            return new WorkerProcess(settings.id(), pb.start(), proxy);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start worker " + settings.id(), e);
        }
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void kill() {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(30));
        proxy.ifPresent(TcpProxy::close);
    }

    @Override
    public void pause() {
        signal("STOP");
    }

    @Override
    public void resume() {
        signal("CONT");
    }

    @Override
    public void cut() {
        proxy.orElseThrow(() -> new IllegalStateException(id + " has no proxy to cut"))
                .cut();
    }

    @Override
    public void restore() {
        proxy.orElseThrow(() -> new IllegalStateException(id + " has no proxy to restore"))
                .restore();
    }

    @Override
    public void requestStop() {
        if (process.isAlive()) {
            process.destroy(); // SIGTERM
        }
    }

    @Override
    public OptionalInt awaitExit(Duration bound) {
        try {
            if (waitFor(bound)) {
                return OptionalInt.of(process.exitValue());
            }
            process.destroyForcibly();
            waitFor(Duration.ofSeconds(30));
            return OptionalInt.empty();
        } finally {
            proxy.ifPresent(TcpProxy::close);
        }
    }

    private boolean waitFor(Duration bound) {
        try {
            return process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for worker " + id, e);
        }
    }

    private void signal(String name) {
        if (!process.isAlive()) {
            return; // it crashed: its EXIT line says so, and there is nothing left to stop or continue
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
            if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " (worker " + id + ") failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling worker " + id, e);
        }
    }
}
