package io.locksmith.tck;

/**
 * The kit's fault hooks, one per {@link Faults} method (and {@link TckSubject#secretUri()}), so
 * that a provider can say which it cannot supply: {@code Capabilities.builder().lacks(Fault.RESTART_SERVER)}.
 *
 * <p>A required rule needs its hooks. A hook the provider neither supplies nor declares lacking
 * fails the rule, saying which hook is missing; a hook declared lacking makes the rule skip,
 * saying that it did not run and why. So a provider cannot pass a rule by leaving a hook out.
 */
public enum Fault {
    /** {@link Faults#removeLockState(String)}. */
    REMOVE_LOCK_STATE("remove a lock's state"),
    /** {@link Faults#cutConnection} with its {@link Faults#restoreConnection}. */
    CUT_CONNECTION("cut and restore a client's connection"),
    /**
     * {@link Faults#crash}. Its default cuts the connection and closes the client, so a provider
     * lacking {@link #CUT_CONNECTION} implements crash or declares it lacking too.
     */
    CRASH("crash a client"),
    /** {@link Faults#restartServer()}. */
    RESTART_SERVER("restart the server"),
    /** {@link Faults#delayReplies}. */
    DELAY_REPLIES("delay a client's replies"),
    /** {@link Faults#removeQueueEntries(String)}; only asked of providers that queue ({@link Capabilities#fifo()}). */
    REMOVE_QUEUE_ENTRIES("remove waiters' queue entries"),
    /**
     * {@link Faults#skewWallClock}. A provider that reads no client wall clock, as it should not,
     * has nothing to skew: it declares this lacking, and the clock rule reports that it did not run.
     */
    SKEW_WALL_CLOCK("skew a client's wall clock"),
    /**
     * {@link TckSubject#secretUri()}: a URI with a credential, for the rule that no message shows
     * one. Only a provider whose URIs carry no credential at all declares it lacking.
     */
    SECRET_URI("open a client from a URI that carries a credential");

    /**
     * What the message of every rule skipped for a capability the provider declared it lacks
     * contains: the runner counts such a required rule as skipped, and any other skipped
     * required rule as failed.
     */
    public static final String AS_DECLARED = "skipped, did not run, as the provider declares:";

    private final String does;

    Fault(String does) {
        this.does = does;
    }

    /** @return what the hook does, for messages: "restart the server" */
    public String does() {
        return does;
    }
}
