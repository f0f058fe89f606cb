package io.locksmith.tck;

import io.locksmith.LockClient;
import java.time.Duration;

/**
 * Fault hooks a provider supplies so the kit can check loss, outage and crash handling. Each hook
 * is named by a {@link Fault}. A hook left unimplemented fails the rules that need it, unless the
 * provider declares it lacking ({@link Capabilities.Builder#lacks(Fault...)}): then those rules
 * are reported as skipped, with the reason.
 */
public interface Faults {

    /**
     * Removes a lock's state on the server behind its holder's back, as an operator deleting the
     * key would. The fencing state (a counter) stays unless the provider keeps it in the lock's state.
     *
     * @param key the lock's backend key (the kit's clients use no prefix: the lock name)
     */
    default void removeLockState(String key) {
        throw new UnsupportedOperationException("the provider supplies no hook to remove a lock's state");
    }

    /**
     * Cuts a client's connection: its calls fail (or time out) until it is restored.
     *
     * @param client a client the kit opened
     */
    default void cutConnection(LockClient client) {
        throw new UnsupportedOperationException("the provider supplies no hook to cut a client's connection");
    }

    /**
     * Restores a connection cut by {@link #cutConnection(LockClient)}.
     *
     * @param client a client the kit opened
     */
    default void restoreConnection(LockClient client) {
        throw new UnsupportedOperationException("the provider supplies no hook to restore a client's connection");
    }

    /**
     * Abandons a client as a crashed process would: nothing is released, nothing renewed again.
     * By default the connection is cut and the client closed, so that its releases fail.
     *
     * @param client a client the kit opened
     */
    default void crash(LockClient client) {
        cutConnection(client);
        client.close();
    }

    /**
     * Restarts the server (every member of it) while the kit's clients stay open: stops it, then
     * starts it again on the same address, keeping its data where the server keeps data on disk.
     * Returns once the server answers again.
     */
    default void restartServer() {
        throw new UnsupportedOperationException("the provider supplies no hook to restart the server");
    }

    /**
     * Delays every reply the server sends to one client by {@code delay}, requests still reaching
     * the server at once (a slow network path back, a client paused while its replies wait):
     * {@link Duration#ZERO} ends the delay. The delay must stay below the client's operation
     * timeout for its calls to succeed.
     *
     * @param client a client the kit opened
     * @param delay how long each reply waits before the client sees it
     */
    default void delayReplies(LockClient client, Duration delay) {
        throw new UnsupportedOperationException("the provider supplies no hook to delay a client's replies");
    }

    /**
     * Removes every waiter's queue entry for a key on the server, leaving the holder's, as an
     * operator deleting them would. Only for providers that queue waiters natively
     * ({@link Capabilities#fifo()}).
     *
     * @param key the lock's backend key
     */
    default void removeQueueEntries(String key) {
        throw new UnsupportedOperationException("the provider supplies no hook to remove queue entries");
    }

    /**
     * Moves a client's wall clock, as if its machine's clock were wrong. A provider that keeps
     * leases by the server's clock, as it must, reads no client wall clock and has nothing to
     * move: it declares {@link Fault#SKEW_WALL_CLOCK} lacking, and the clock rule reports that it
     * did not run (it does not pass on a hook that does nothing).
     *
     * @param client a client the kit opened
     * @param offset how far ahead (or behind, negative) its clock is
     */
    default void skewWallClock(LockClient client, Duration offset) {
        throw new UnsupportedOperationException("the provider supplies no hook to skew a client's wall clock");
    }
}
