package io.locksmith.cli;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --uri} on every subcommand; without it {@code LOCKSMITH_URI}; without that, the embedded
 * default: a SQLite file in the user's state directory, shared by every process on the machine.
 */
final class UriOption {

    @Option(names = "--uri", paramLabel = "URI",
            description = "The lock backend, e.g. redis://localhost:6379 (default: $LOCKSMITH_URI, else a SQLite file "
                    + "in ~/.local/state/locksmith)")
    String uri;

    String resolve() {
        if (uri != null && !uri.isBlank()) {
            return uri;
        }
        String env = System.getenv("LOCKSMITH_URI");
        if (env != null && !env.isBlank()) {
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
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "state");
        Path dir = base.resolve("locksmith");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the state directory " + dir, e);
        }
        return dir;
    }
}
