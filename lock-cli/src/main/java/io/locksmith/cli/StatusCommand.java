package io.locksmith.cli;

import io.locksmith.DistributedLock;
import io.locksmith.DistributedSemaphore;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.LockStatus;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code locksmith status NAME…}: who holds each lock, with which token, for how long; the leader
 * of an election, whose lock it is; with {@code --semaphore}, every holder of each semaphore.
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = {
            "Shows who holds each lock, its fencing token and remaining lease, where the backend can tell.",
            "A leader election's lock shows the leader's identity.",
            "With --semaphore, shows the holders of the semaphores NAME… instead."
        })
final class StatusCommand implements Callable<Integer> {

    /**
     * Ends a leader election's owner before the participant's identity, which the core writes
     * percent-encoded as UTF-8.
     */
    private static final String IDENTITY_SEPARATOR = "/";

    /**
     * The permit count a look at a semaphore gives; listing holders takes no permit, so the number
     * is never compared with the holders' own.
     */
    private static final int ANY_PERMITS = 1;

    @Spec
    CommandSpec spec;

    @Mixin
    UriOption uri = new UriOption();

    @Option(
            names = "--semaphore",
            description = "Show the semaphores NAME… (every permit's holder) instead of the locks NAME….")
    boolean semaphore;

    @Parameters(arity = "1..*", paramLabel = "NAME", description = "Lock names (with --semaphore, semaphore names).")
    List<String> names;

    @Override
    public Integer call() {
        try (LockClient locks = uri.open(LockOptions.defaults())) {
            names.forEach(n -> Main.argument(spec, () -> locks.lock(n))); // every name checked before any is shown
            for (String name : names) {
                if (semaphore) {
                    showSemaphore(locks, name);
                } else {
                    showLock(locks.lock(name), locks.backend());
                }
            }
        }
        return ExitCodes.OK;
    }

    private static void showLock(DistributedLock lock, String backend) {
        String name = lock.name();
        LockStatus status = lock.status();
        System.out.println(
                switch (status.state()) {
                    case FREE -> name + ": free";
                    case UNKNOWN -> name + ": unknown (" + backend + " cannot tell without taking the lock)";
                    case HELD ->
                        name + ": "
                                + leaderOf(status)
                                        .map(identity -> "leader " + identity + ", ")
                                        .orElse("")
                                + held(status);
                });
    }

    private static void showSemaphore(LockClient locks, String name) {
        String title = name + " (semaphore): ";
        List<LockStatus> holders;
        try {
            DistributedSemaphore semaphore = locks.semaphore(name, ANY_PERMITS);
            holders = semaphore.holders();
        } catch (UnsupportedOperationException e) {
            System.out.println(title + "unknown (" + e.getMessage() + ")");
            return;
        }
        if (holders.isEmpty()) {
            System.out.println(title + "free");
            return;
        }
        System.out.println(title + holders.size() + (holders.size() == 1 ? " permit" : " permits") + " held");
        for (LockStatus holder : holders) {
            System.out.println("  " + held(holder));
        }
    }

    /** @return "held by OWNER, token T, N ms of lease left" */
    private static String held(LockStatus status) {
        return "held by " + status.owner().orElse("?") + ", token "
                + status.fencingToken().orElse(0)
                + status.remainingLease()
                        .map(d -> ", " + d.toMillis() + " ms of lease left")
                        .orElse("");
    }

    /** @return the identity of the participant that holds a leader election's lock, if a participant holds it */
    private static Optional<String> leaderOf(LockStatus status) {
        return status.owner()
                .filter(owner -> owner.contains(IDENTITY_SEPARATOR))
                .map(owner -> owner.substring(owner.indexOf(IDENTITY_SEPARATOR) + IDENTITY_SEPARATOR.length()))
                .flatMap(encoded -> {
                    try {
                        return Optional.of(
                                java.net.URLDecoder.decode(encoded, java.nio.charset.StandardCharsets.UTF_8));
                    } catch (IllegalArgumentException notAnIdentity) {
                        return Optional.empty();
                    }
                });
    }
}
