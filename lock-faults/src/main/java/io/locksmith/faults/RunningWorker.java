package io.locksmith.faults;

import java.time.Duration;
import java.util.OptionalInt;

/**
 * A worker of a run as the controller drives it: a process it can signal, or a thread standing
 * for one (memory). Each control returns once it has taken effect, so the controller's log line
 * for it is true when written.
 */
interface RunningWorker {

    /** @return the worker's id, {@code w1}, … */
    String id();

    /** {@code kill -9}; for a thread: cut off and abandoned without a release. Returns once it is gone. */
    void kill();

    /** SIGSTOP; for a thread: held at its next step, with its connection cut so its client cannot renew. */
    void pause();

    /** SIGCONT; for a thread: its connection restored and its step let go. */
    void resume();

    /** Cuts the worker's connection to the server (its proxy, or its memory connection). */
    void cut();

    /** Restores what {@link #cut()} cut. */
    void restore();

    /** Asks the worker to stop (SIGTERM; for a thread, {@link Worker#stop()}), at once, without waiting. */
    void requestStop();

    /**
     * Waits for the worker to end after {@link #requestStop()}.
     *
     * @param bound how long to wait before killing it
     * @return its exit code (for a thread: 0 when it stopped, 137 when killed, 1 when it failed),
     *     or empty if it hung and was killed
     */
    OptionalInt awaitExit(Duration bound);
}
