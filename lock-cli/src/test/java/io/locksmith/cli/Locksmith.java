package io.locksmith.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real command as a process, as a user would: {@code bin/locksmith} of the distribution
 * the build just unpacked (the system property {@code locksmith.distribution}).
 */
final class Locksmith {

    private static final Path COMMAND = Path.of(System.getProperty("locksmith.distribution"), "bin", "locksmith");

    /** What a finished command printed and returned. */
    record Result(int exitCode, String output) {}

    private Locksmith() {}

    /** @return the command a user types */
    static Path command() {
        return COMMAND;
    }

    static Process start(Path log, String... args) throws IOException {
        return start(log, Map.of(), args);
    }

    /** Starts the command with {@code env} added to a copy of this JVM's environment, less LOCKSMITH_URI. */
    static Process start(Path log, Map<String, String> env, String... args) throws IOException {
        return start(command(), log, env, args);
    }

    static Process start(Path command, Path log, Map<String, String> env, String... args) throws IOException {
        List<String> line = new ArrayList<>(List.of(command.toString()));
        line.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true);
        builder.environment().remove("LOCKSMITH_URI");
        builder.environment().putAll(env);
        return builder.redirectOutput(log.toFile()).start();
    }

    static Result run(String... args) throws IOException, InterruptedException {
        return run(Map.of(), args);
    }

    static Result run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        return run(command(), env, args);
    }

    static Result run(Path command, Map<String, String> env, String... args) throws IOException, InterruptedException {
        Path log = Files.createTempFile("locksmith", ".log");
        try {
            Process p = start(command, log, env, args);
            if (!p.waitFor(3, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("locksmith " + String.join(" ", args) + " did not finish in 3 minutes:\n"
                        + Files.readString(log));
            }
            return new Result(p.exitValue(), Files.readString(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** Waits (at most a minute: the command's JVM starts on a busy machine) until {@code log} contains {@code text}. */
    static void awaitOutput(Path log, String text, Process p) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(log).contains(text)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("expected '" + text + "' from the command (alive: " + p.isAlive() + "), got:\n"
                        + Files.readString(log));
            }
            TimeUnit.MILLISECONDS.sleep(50); // polling a file another process writes
        }
    }
}
