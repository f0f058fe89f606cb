package io.locksmith.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * One run of a server process, started under a small bash watchdog so that it cannot outlive
 * the JVM.
 *
 * <p>The watchdog starts the server in a session of its own with {@code setsid}, out of reach of
 * a terminal's Ctrl-C, and prints the server's pid. It then blocks reading its stdin, a pipe from
 * this JVM. The pipe closes when the JVM exits in any way, SIGKILL included; the watchdog then
 * kills the server with all its descendants and deletes the data directory. A line on the pipe
 * instead means "killed on purpose, keep the data" (a restart follows). Where the kernel allows,
 * the watchdog is a child subreaper, so children orphaned by the kill are reaped by it rather than
 * left as zombies under an init that does not reap.
 */
final class ServerProcess {

    // $1 log file, $2 directory to delete when the JVM is gone, $3... the server's command line.
    // Signals are ignored: Ctrl-C reaches the whole foreground group, and the watchdog must live
    // until the JVM has closed the pipe. The server's process tree is walked through /proc because
    // PostgreSQL's children leave the server's process group with setsid().
    private static final String WATCHDOG = String.join(
            "\n",
            "log=$1; data=$2; shift 2",
            "trap '' INT TERM HUP QUIT",
            "setsid \"$@\" </dev/null >>\"$log\" 2>&1 &",
            "server=$!",
            "echo \"$server\"",
            "if read -r _; then data=; fi",
            "tree() {",
            "  local t kids k",
            "  echo \"$1\"",
            "  for t in /proc/\"$1\"/task/*/children; do",
            "    kids=; read -r kids < \"$t\" 2>/dev/null",
            "    for k in $kids; do tree \"$k\"; done",
            "  done",
            "}",
            "kill -STOP \"$server\" 2>/dev/null",
            "kill -KILL $(tree \"$server\") 2>/dev/null",
            "wait \"$server\" 2>/dev/null",
            "for _ in $(seq 100); do",
            "  kids=; read -r kids < /proc/$$/task/$$/children 2>/dev/null",
            "  [ -z \"$kids\" ] && break",
            "  sleep 0.05",
            "done",
            // the JVM's temporary root goes with its last server
            "if [ -n \"$data\" ]; then rm -rf -- \"$data\"; rmdir -- \"${data%/*}\" 2>/dev/null; fi",
            "");

    private static final long KILL_WAIT_SECONDS = 15;

    private final Process watchdog;
    private final long pid;
    private final OutputStream control;

    private ServerProcess(Process watchdog, long pid) {
        this.watchdog = watchdog;
        this.pid = pid;
        this.control = watchdog.getOutputStream();
    }

    /**
     * Starts a server.
     *
     * @param command the server's command line; it must stay in the foreground
     * @param log the file the server's output is appended to
     * @param dataDir deleted by the watchdog if the JVM dies without cleaning up
     */
    static ServerProcess start(List<String> command, Path log, Path dataDir) {
        List<String> line = new ArrayList<>(subreaperPrefix());
        line.addAll(List.of("bash", "-c", WATCHDOG, "locksmith-watchdog", log.toString(), dataDir.toString()));
        line.addAll(command);
        try {
            Process watchdog = new ProcessBuilder(line)
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(watchdog.getInputStream(), StandardCharsets.UTF_8));
            String pidLine = out.readLine();
            if (pidLine == null) {
                throw new TestServerException(
                        "the watchdog for " + command.get(0) + " exited before starting it; see " + log);
            }
            ServerProcess started = new ServerProcess(watchdog, Long.parseLong(pidLine.trim()));
            Reaper.register(started);
            return started;
        } catch (IOException e) {
            throw new TestServerException("could not start " + command.get(0) + ": " + e.getMessage(), e);
        }
    }

    /** The pid of the server itself, not of its watchdog. */
    long pid() {
        return pid;
    }

    /** Whether the server process still runs (a stopped process counts as running). */
    boolean isAlive() {
        return watchdog.isAlive()
                && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * Sends a signal such as {@code STOP} or {@code CONT} to the server and all its descendants,
     * the server first so that it forks no new child while the rest are listed.
     */
    void signal(String signal) {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal, Long.toString(pid)));
        run(command, signal, pid, true);
        List<String> descendants = new ArrayList<>(List.of("kill", "-" + signal));
        ProcessHandle.of(pid)
                .ifPresent(
                        server -> server.descendants().forEach(child -> descendants.add(Long.toString(child.pid()))));
        if (descendants.size() > 2) {
            // a child may exit between being listed and being signalled (a PostgreSQL backend
            // ending its session): that is no failure, so only the server's own signal must succeed
            run(descendants, signal, pid, false);
        }
    }

    private static void run(List<String> kill, String signal, long pid, boolean mustSucceed) {
        try {
            Process process = new ProcessBuilder(kill).redirectErrorStream(true).start();
            if (!process.waitFor(10, TimeUnit.SECONDS) || (mustSucceed && process.exitValue() != 0)) {
                String said = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                throw new TestServerException("kill -" + signal + " of server " + pid + " failed: " + said);
            }
        } catch (IOException e) {
            throw new TestServerException("kill -" + signal + " of server " + pid + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestServerException("interrupted while signalling server " + pid, e);
        }
    }

    /** SIGKILLs the server and its descendants, keeps its data, and returns once they are gone. */
    void kill() {
        try {
            control.write("kill\n".getBytes(StandardCharsets.US_ASCII));
            control.close();
        } catch (IOException alreadyGone) {
            // the watchdog has exited, so the server is gone already
        }
        awaitWatchdog(KILL_WAIT_SECONDS);
        Reaper.unregister(this);
    }

    /** Asks the watchdog to kill the server and delete its data, without waiting. */
    void release() {
        try {
            control.close();
        } catch (IOException alreadyGone) {
            // nothing left to tell
        }
    }

    /** Waits up to the given time for the watchdog (and so the server) to be gone. */
    boolean awaitWatchdog(long seconds) {
        try {
            if (watchdog.waitFor(seconds, TimeUnit.SECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** The last lines of a server's log, for error messages. */
    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
            return last.isEmpty() ? "(the log is empty)" : String.join("\n", last);
        } catch (IOException | RuntimeException e) {
            return "(could not read " + log + ": " + e.getMessage() + ")";
        }
    }

    /**
     * A perl one-liner that makes the watchdog a child subreaper (prctl PR_SET_CHILD_SUBREAPER,
     * kept across exec), where perl and a known syscall number exist; nothing otherwise, since a
     * normal init reaps orphans anyway.
     */
    private static List<String> subreaperPrefix() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String prctl = switch (arch) {
            case "amd64", "x86_64" -> "157";
            case "aarch64", "arm64" -> "167";
            default -> null;
        };
        if (prctl == null || Binaries.find("perl").isEmpty()) {
            return List.of();
        }
        return List.of("perl", "-e", "syscall(" + prctl + ", 36, 1, 0, 0, 0); exec @ARGV or die", "--");
    }
}
