package io.locksmith.testing;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Owns what the test servers leave on the machine: the processes and the temporary directory
 * they keep their data in. A shutdown hook ends every server still running and deletes the
 * directory; the watchdogs cover a JVM that dies without running hooks.
 */
final class Reaper {

    private static final Set<ServerProcess> RUNNING = ConcurrentHashMap.newKeySet();
    private static final List<AutoCloseable> OTHERS = new ArrayList<>();
    private static Path root;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Reaper::reapAll, "locksmith-test-servers-reaper"));
    }

    private Reaper() {}

    static void register(ServerProcess process) {
        RUNNING.add(process);
    }

    static void unregister(ServerProcess process) {
        RUNNING.remove(process);
    }

    /** Registers something else to close at exit, such as a container. */
    static synchronized void closeAtExit(AutoCloseable resource) {
        OTHERS.add(resource);
    }

    /**
     * A fresh directory for one server under this JVM's temporary root. The root lets other users
     * through (mode 711) because PostgreSQL runs as its own user when the tests run as root.
     */
    static synchronized Path newDirectory(String name) {
        try {
            if (root == null) {
                root = Files.createTempDirectory("locksmith-test-servers-");
                Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx--x--x"));
            }
            Path dir = Files.createTempDirectory(root, name + "-");
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            return dir;
        } catch (IOException e) {
            throw new TestServerException("could not create a data directory for " + name + ": " + e.getMessage(), e);
        }
    }

    private static void reapAll() {
        // close every pipe first so that the watchdogs kill their servers in parallel
        RUNNING.forEach(ServerProcess::release);
        long deadline = System.nanoTime() + 20_000_000_000L;
        for (ServerProcess process : RUNNING) {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000_000L);
            process.awaitWatchdog(left);
        }
        synchronized (Reaper.class) {
            for (AutoCloseable other : OTHERS) {
                try {
                    other.close();
                } catch (Exception e) {
                    // nothing to do at exit; the container runtime's own reaper remains
                }
            }
            if (root != null) {
                deleteTree(root);
            }
        }
    }

    private static void deleteTree(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path visited, IOException e) throws IOException {
                    Files.deleteIfExists(visited);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // a leftover temporary directory is harmless; the exit must not fail for it
        }
    }
}
