package io.locksmith.cli;

import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --uri} on every subcommand; without it {@code LOCKSMITH_URI}; without that, the embedded
 * default: a SQLite file in the user's state directory, shared by that user's processes.
 *
 * <p>A {@code --uri} or {@code LOCKSMITH_URI} that is given but blank is refused, as
 * {@link LockClient#fromEnvironment()} refuses it: it is nearly always an unset shell variable
 * ({@code --uri "$LOCKS"}), and falling back to a machine-local lock would let every machine run
 * the job.
 */
final class UriOption {

    /** The environment variable read when {@code --uri} is not given. */
    static final String VARIABLE = "LOCKSMITH_URI";

    @Option(
            names = "--uri",
            paramLabel = "URI",
            description = "The lock backend, e.g. redis://localhost:6379 (default: $LOCKSMITH_URI, else a SQLite file "
                    + "in ~/.local/state/locksmith)")
    String uri;

    /**
     * @return the URI to open
     * @throws LockConfigurationException if {@code --uri} or {@code LOCKSMITH_URI} is given but blank
     */
    String resolve() {
        if (uri != null) {
            if (uri.isBlank()) {
                throw new LockConfigurationException("--uri is empty: give a lock URI (for example memory: or "
                        + "redis://localhost:6379), or leave --uri out to use $" + VARIABLE
                        + " or the local SQLite default");
            }
            return uri;
        }
        String env = System.getenv(VARIABLE);
        if (env != null) {
            if (env.isBlank()) {
                throw new LockConfigurationException(VARIABLE + " is set but blank: set it to a lock URI (for example "
                        + "memory: or redis://localhost:6379), or unset it to use the local SQLite default");
            }
            return env;
        }
        return "jdbc:sqlite:" + stateDirectory().resolve("locks.db");
    }

    LockClient open(LockOptions options) {
        return LockClient.open(resolve(), options);
    }

    /** @return {@code $XDG_STATE_HOME/locksmith}, else {@code ~/.local/state/locksmith}, created if missing */
    static Path stateDirectory() {
        String xdg = System.getenv("XDG_STATE_HOME");
        Path base = xdg != null && !xdg.isBlank()
                ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".local", "state");
        Path dir = base.resolve("locksmith");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the state directory " + dir, e);
        }
        return dir;
    }
}
