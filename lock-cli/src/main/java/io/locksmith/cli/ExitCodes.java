package io.locksmith.cli;

/** The command's exit codes, as docs/cli.md lists them. */
final class ExitCodes {

    /** Done; for {@code run}, the command's own exit code is returned instead. */
    static final int OK = 0;
    /** The demo's story did not come out as it should. */
    static final int DEMO_FAILED = 1;
    /** Bad arguments: a usage message was printed. */
    static final int USAGE = 2;
    /** {@code run --permits N}: the semaphore's holders gave another number of permits. */
    static final int PERMIT_MISMATCH = 65;
    /** The backend could not be reached or failed. */
    static final int UNAVAILABLE = 69;
    /** The lock stayed held for the whole wait ({@code --wait 0}: it was held). */
    static final int LOCK_HELD = 75;
    /** The lock was lost while the command ran. */
    static final int LOCK_LOST = 76;
    /** The configuration is wrong: a malformed URI, an unknown option, no provider, a primitive the backend lacks. */
    static final int CONFIG = 78;
    /** The command to run was not found or could not be started. */
    static final int NOT_FOUND = 127;
    /** Stopped by SIGTERM (128 + 15); the JVM itself exits so after a signal. */
    static final int SIGTERM = 143;

    private ExitCodes() {}
}
