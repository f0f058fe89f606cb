package io.locksmith.faults;

import io.locksmith.LockOptions;
import io.locksmith.memory.MemoryFaults;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Worker} on a thread of the controller's JVM, standing for a process where the backend's
 * store cannot be shared between processes (memory). Its client's connection to the shared store
 * can be cut ({@link MemoryFaults.Connection}), which is how the process faults map onto a thread: a kill
 * is a client cut off and abandoned without a release; a pause holds the thread at its next step
 * with its connection cut, so that, as under SIGSTOP, nothing renews its lease.
 */
final class WorkerThread implements RunningWorker {

    private final String id;
    private final Worker worker;
    private final Thread thread;
    private final AtomicReference<MemoryFaults.Connection> connection = new AtomicReference<>();
    private volatile boolean killed;

    WorkerThread(WorkerSettings settings, String group) {
        this.id = settings.id();
        this.worker = new Worker(settings, () -> {
            MemoryFaults.Connection c = MemoryFaults.connect(group, options(settings));
            connection.set(c);
            return c.client();
        });
        this.thread = new Thread(worker, "worker-" + id);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private static LockOptions options(WorkerSettings settings) {
        LockOptions.Builder b = LockOptions.builder();
        settings.lease().ifPresent(b::lease);
        return b.build();
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void kill() {
        killed = true;
        cut();
        worker.abandon();
        join(Duration.ofSeconds(30));
    }

    @Override
    public void pause() {
        worker.pause();
        cut();
    }

    @Override
    public void resume() {
        restore();
        worker.resume();
    }

    @Override
    public void cut() {
        MemoryFaults.Connection c = connection.get();
        if (c != null) {
            c.cut();
        }
    }

    @Override
    public void restore() {
        MemoryFaults.Connection c = connection.get();
        if (c != null) {
            c.restore();
        }
    }

    @Override
    public void requestStop() {
        worker.stop();
    }

    @Override
    public OptionalInt awaitExit(Duration bound) {
        if (join(bound)) {
            // a killed thread reports what a process killed by SIGKILL would: 128 + 9
            return OptionalInt.of(killed ? 137 : worker.stoppedNormally() ? 0 : 1);
        }
        kill();
        return OptionalInt.empty();
    }

    private boolean join(Duration bound) {
        try {
            thread.join(bound.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }
}
