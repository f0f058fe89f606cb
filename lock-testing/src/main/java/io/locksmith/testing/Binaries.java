package io.locksmith.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Finds and runs server programs on this machine, and says how to get the missing ones. */
final class Binaries {

    // Debian puts daemons such as mariadbd in /usr/sbin, which a non-root PATH may lack
    private static final List<String> EXTRA_DIRS = List.of("/usr/local/sbin", "/usr/sbin", "/sbin");

    private Binaries() {}

    /** The executable of that name on the PATH or in the sbin directories. */
    static Optional<Path> find(String name) {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(File.pathSeparator)));
        }
        dirs.addAll(EXTRA_DIRS);
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The first of the names that exists, for programs renamed across versions. */
    static Optional<Path> findAny(String... names) {
        for (String name : names) {
            Optional<Path> found = find(name);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** The message for a server that can be neither started locally nor in a container. */
    static String missingMessage(Backend backend, String what) {
        return backend.displayName() + " is not available for the tests: " + what
                + ", and no Docker engine answered for a container. Install "
                + backend.installHint() + " (scripts/install-test-servers.sh installs every server the tests"
                + " need, and scripts/test.sh runs it first), or set " + backend.environmentVariable()
                + " to the URI of a running server.";
    }

    /** Runs a set-up command to completion; its output goes to the log. */
    static void run(String what, List<String> command, Path log) throws IOException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(what + " did not finish in 120 s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(what + " exited with " + process.exitValue() + ":\n" + ServerProcess.tail(log, 20));
        }
    }
}
