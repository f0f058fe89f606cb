package io.locksmith.cli;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code locksmith run NAME -- CMD ARGS…}: a distributed {@code flock(1)}; with
 * {@code --permits N}, a distributed concurrency limit: the command runs holding one of the N
 * permits of the semaphore NAME.
 *
 * <p>Stopped by a signal (SIGTERM, SIGINT, SIGHUP), the command is stopped the way a lost lock
 * stops it — SIGTERM, then SIGKILL after {@code --grace} — and only then is the lock released, in
 * a shutdown hook, so that the next holder never overlaps a command still running. The JVM then
 * exits 128 + the signal's number, as a shell does.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Runs a command while holding a lock, renewing it; like flock(1), across machines.",
            "With --permits N it holds one of the N permits of the semaphore NAME instead: at most N such commands"
                    + " run at once.",
            "The command gets the grant's fencing token in LOCKSMITH_FENCING_TOKEN and the name in LOCKSMITH_LOCK_NAME.",
            "On SIGTERM, SIGINT or SIGHUP the command is sent SIGTERM (SIGKILL after --grace) and the lock released."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "N:the command's own exit code",
            "2:bad arguments",
            "65:--permits differs from the number the semaphore's holders gave",
            "69:the backend could not be reached",
            "75:the lock (or every permit) stayed held for the whole --wait",
            "76:the lock was lost while the command ran",
            "78:bad configuration; --permits on a backend that keeps no semaphores",
            "127:the command was not found",
            "128+N:stopped by signal N (143: SIGTERM)"
        })
final class RunCommand implements Callable<Integer> {

    enum OnLost {
        TERMINATE,
        WARN
    }

    /** How long the shutdown hook waits for the main thread's release once the command ended. */
    private static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(30);

    @Spec
    CommandSpec spec;

    @Mixin
    UriOption uri = new UriOption();

    @Parameters(index = "0", paramLabel = "NAME", description = "The lock's name (with --permits, the semaphore's).")
    String name;

    @Parameters(
            index = "1..*",
            arity = "1..*",
            paramLabel = "CMD",
            description = "The command and its arguments, after --.")
    List<String> command;

    @Option(
            names = "--wait",
            paramLabel = "D",
            converter = Durations.class,
            description = "How long to wait for the lock; 0 fails at once if it is held (default: wait indefinitely).")
    Duration wait = Duration.ofDays(36_500);

    @Option(
            names = "--permits",
            paramLabel = "N",
            description = "Hold one permit of the semaphore NAME, which admits N holders at a time, instead of the lock"
                    + " NAME. Every run of one NAME must give the same N.")
    Integer permits;

    @Option(
            names = "--lease",
            paramLabel = "D",
            converter = Durations.class,
            description = "The lease, renewed while the command runs (default: the backend's default, 30s).")
    Duration lease;

    @Option(
            names = "--on-lost",
            paramLabel = "POLICY",
            description =
                    "What to do if the lock is lost while the command runs: terminate (SIGTERM, then SIGKILL after"
                            + " --grace) or warn. Either way the exit code is 76. Default: terminate.")
    OnLost onLost = OnLost.TERMINATE;

    @Option(
            names = "--grace",
            paramLabel = "D",
            converter = Durations.class,
            description = "How long a terminated command has to exit before it is killed (default: 10s).")
    Duration grace = Duration.ofSeconds(10);

    /** Guards {@link #child} and {@link #stopping} between the main thread and the shutdown hook. */
    private final Object lifecycle = new Object();

    private Process child;
    private boolean stopping;
    /** Counted down once the main thread has released the lock and closed the client. */
    private final CountDownLatch released = new CountDownLatch(1);

    @Override
    public Integer call() throws InterruptedException {
        LockOptions options = Main.argument(
                spec,
                () -> lease == null
                        ? LockOptions.defaults()
                        : LockOptions.builder().lease(lease).build());
        LockClient locks = uri.open(options);
        Thread onSignal = new Thread(() -> stopThenRelease(locks), "locksmith-run-signal");
        try (locks) {
            DistributedLock lock =
                    Main.argument(spec, () -> permits == null ? locks.lock(name) : locks.semaphore(name, permits));
            Runtime.getRuntime().addShutdownHook(onSignal);
            try (LockHandle held = lock.acquire(wait)) {
                return runHolding(held);
            }
        } finally {
            released.countDown();
            removeQuietly(onSignal);
        }
    }

    private int runHolding(LockHandle held) throws InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().put("LOCKSMITH_FENCING_TOKEN", Long.toString(held.fencingToken()));
        builder.environment().put("LOCKSMITH_LOCK_NAME", name);
        Process process;
        synchronized (lifecycle) {
            if (stopping) {
                return ExitCodes.SIGTERM; // a signal came while the lock was being taken: the command never starts
            }
            try {
                process = builder.start();
            } catch (IOException e) {
                System.err.println("locksmith: cannot run " + command.get(0) + ": " + e.getMessage());
                return ExitCodes.NOT_FOUND;
            }
            child = process;
        }
        AtomicBoolean lost = new AtomicBoolean();
        held.onLost(() -> {
            lost.set(true);
            System.err.println("locksmith: " + holding() + " was lost while the command ran"
                    + (onLost == OnLost.TERMINATE ? "; terminating it" : ""));
            if (onLost == OnLost.TERMINATE) {
                stop(process);
            }
        });
        int code = process.waitFor();
        return lost.get() || !held.isHeld() ? ExitCodes.LOCK_LOST : code;
    }

    /** @return what the command holds, for messages: "lock 'x'" or "permit of semaphore 'x'" */
    private String holding() {
        return permits == null ? "lock '" + name + "'" : "permit of semaphore '" + name + "'";
    }

    /**
     * The shutdown path: the command first, so the lock is never free while it still runs. The
     * main thread, whose wait for the command then returns, releases the lock; the hook waits for
     * that, because the JVM halts as soon as the hooks return, mid-release if need be. Closing the
     * client here instead covers a main thread still waiting for the lock.
     */
    private void stopThenRelease(LockClient locks) {
        Process process;
        synchronized (lifecycle) {
            stopping = true;
            process = child;
        }
        try {
            if (process != null) {
                stop(process);
                if (released.await(RELEASE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        locks.close(); // releases any handle it holds and ends a wait for the lock
    }

    /** SIGTERM, then SIGKILL if the command is still running after the grace period. */
    private void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void removeQuietly(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: it stops the command and releases the lock
        }
    }
}
