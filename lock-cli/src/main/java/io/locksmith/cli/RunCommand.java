package io.locksmith.cli;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code locksmith run NAME -- CMD ARGS…}: a distributed {@code flock(1)}. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Runs a command while holding a lock, renewing it; like flock(1), across machines.",
            "The command gets the lock's fencing token in LOCKSMITH_FENCING_TOKEN and its name in LOCKSMITH_LOCK_NAME."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"N:the command's own exit code", "2:bad arguments", "69:the backend could not be reached",
            "75:the lock stayed held for the whole --wait", "76:the lock was lost while the command ran",
            "78:bad configuration", "127:the command was not found"})
final class RunCommand implements Callable<Integer> {

    enum OnLost { TERMINATE, WARN }

    @Mixin
    UriOption uri = new UriOption();

    @Parameters(index = "0", paramLabel = "NAME", description = "The lock's name.")
    String name;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "CMD", description = "The command and its arguments, after --.")
    List<String> command;

    @Option(names = "--wait", paramLabel = "D", converter = Durations.class,
            description = "How long to wait for the lock; 0 fails at once if it is held (default: wait indefinitely).")
    Duration wait = Duration.ofDays(36_500);

    @Option(names = "--lease", paramLabel = "D", converter = Durations.class,
            description = "The lease, renewed while the command runs (default: the backend's default, 30s).")
    Duration lease;

    @Option(names = "--on-lost", paramLabel = "POLICY",
            description = "What to do if the lock is lost while the command runs: terminate (SIGTERM, then SIGKILL after"
                    + " --grace) or warn. Either way the exit code is 76. Default: ${DEFAULT-VALUE}.")
    OnLost onLost = OnLost.TERMINATE;

    @Option(names = "--grace", paramLabel = "D", converter = Durations.class,
            description = "How long a terminated command has to exit before it is killed (default: 10s).")
    Duration grace = Duration.ofSeconds(10);

    @Override
    public Integer call() throws InterruptedException {
        LockOptions.Builder options = LockOptions.builder();
        if (lease != null) {
            options.lease(lease);
        }
        try (LockClient locks = uri.open(options.build())) {
            DistributedLock lock = locks.lock(name);
            try (LockHandle held = lock.acquire(wait)) {
                return runHolding(held);
            }
        }
    }

    private int runHolding(LockHandle held) throws InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().put("LOCKSMITH_FENCING_TOKEN", Long.toString(held.fencingToken()));
        builder.environment().put("LOCKSMITH_LOCK_NAME", name);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            System.err.println("locksmith: cannot run " + command.get(0) + ": " + e.getMessage());
            return ExitCodes.NOT_FOUND;
        }
        Thread stopChild = new Thread(process::destroy, "locksmith-stop-child");
        Runtime.getRuntime().addShutdownHook(stopChild);
        AtomicBoolean lost = new AtomicBoolean();
        held.onLost(() -> {
            lost.set(true);
            System.err.println("locksmith: lock '" + name + "' was lost while the command ran"
                    + (onLost == OnLost.TERMINATE ? "; terminating it" : ""));
            if (onLost == OnLost.TERMINATE) {
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
        });
        int code = process.waitFor();
        Runtime.getRuntime().removeShutdownHook(stopChild);
        return lost.get() || !held.isHeld() ? ExitCodes.LOCK_LOST : code;
    }
}
