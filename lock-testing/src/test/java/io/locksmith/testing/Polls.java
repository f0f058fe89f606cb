package io.locksmith.testing;

import java.time.Duration;

/** Retries an action until it succeeds or a deadline passes: for waits on a cluster's recovery. */
final class Polls {

    /** An action that may throw. */
    interface Action {
        void run() throws Exception;
    }

    private Polls() {}

    static void until(Duration timeout, Action action) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                action.run();
                return;
            } catch (Exception | AssertionError e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("still failing after " + timeout.toSeconds() + " s", e);
                }
            }
            Thread.sleep(100); // the retry interval of a bounded poll
        }
    }
}
