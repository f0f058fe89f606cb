package io.locksmith.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real {@code ./locksmith} command as a process, as a user would. */
final class Locksmith {

    private static final Path SCRIPT = Path.of("..", "locksmith").toAbsolutePath().normalize();

    /** What a finished command printed and returned. */
    record Result(int exitCode, String output) {}

    private Locksmith() {}

    static Process start(Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("LOCKSMITH_URI");
        return builder.redirectOutput(log.toFile()).start();
    }

    static Result run(String... args) throws IOException, InterruptedException {
        Path log = Files.createTempFile("locksmith", ".log");
        Process p = start(log, args);
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("locksmith " + String.join(" ", args) + " did not finish:\n" + Files.readString(log));
        }
        return new Result(p.exitValue(), Files.readString(log));
    }
}
