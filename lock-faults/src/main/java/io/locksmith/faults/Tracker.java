package io.locksmith.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The controller's live view of the workers, read from their history files as they grow: who
 * holds, who waits, who has just been granted. The nemeses aim with it. Only complete lines are
 * read. Used from the controller's thread only.
 */
final class Tracker {

    /** How often the files are read while waiting for a state: short, to stop a worker just after its grant. */
    private static final long POLL_NANOS = Duration.ofMillis(2).toNanos();

    /** What the tracker knows of one worker. */
    static final class State {
        final String id;
        final Path file;
        long offset;
        /** Whether it has opened its client and made its first attempt. */
        boolean ready;

        boolean holding;
        long grantNanos;
        /** When its open {@code ATTEMPT} began, or -1 when it is not waiting. */
        long waitingSince = -1;

        boolean gone;

        State(String id, Path file) {
            this.id = id;
            this.file = file;
        }
    }

    private final Map<String, State> workers = new LinkedHashMap<>();

    void add(String id, Path file) {
        workers.put(id, new State(id, file));
    }

    /** A worker killed or stopped: never aimed at again. */
    void gone(String id) {
        workers.get(id).gone = true;
    }

    /** Reads what the workers wrote since the last call. */
    void poll() {
        for (State s : workers.values()) {
            if (!s.gone) {
                read(s);
            }
        }
    }

    /**
     * Waits until some live worker is in the state asked for.
     *
     * @param test  the state
     * @param bound how long to wait
     * @return that worker, or empty when none was in time
     */
    Optional<State> await(Predicate<State> test, Duration bound) {
        long end = System.nanoTime() + bound.toNanos();
        while (true) {
            poll();
            for (State s : workers.values()) {
                if (!s.gone && test.test(s)) {
                    return Optional.of(s);
                }
            }
            if (System.nanoTime() - end >= 0) {
                return Optional.empty();
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /**
     * @param s a worker
     * @return whether another live worker holds, as last read
     */
    boolean holdsOtherThan(State s) {
        return workers.values().stream().anyMatch(o -> o != s && !o.gone && o.holding);
    }

    /** @return whether every worker added so far has opened its client and logged its first {@code ATTEMPT} */
    boolean allReady() {
        poll();
        return workers.values().stream().allMatch(s -> s.gone || s.ready);
    }

    private static void read(State s) {
        String text;
        try (FileChannel f = FileChannel.open(s.file, StandardOpenOption.READ)) {
            long size = f.size();
            if (size <= s.offset) {
                return;
            }
            ByteBuffer bytes = ByteBuffer.allocate((int) (size - s.offset));
            while (bytes.hasRemaining() && f.read(bytes, s.offset + bytes.position()) > 0) {
                // read until the size seen
            }
            text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return; // not started yet
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read history file " + s.file, e);
        }
        int end = text.lastIndexOf('\n');
        if (end < 0) {
            return;
        }
        s.offset += text.substring(0, end + 1).getBytes(StandardCharsets.UTF_8).length;
        for (String line : text.substring(0, end).split("\n")) {
            Event e = Event.parse(line);
            switch (e.kind()) {
                case "ATTEMPT" -> {
                    s.ready = true;
                    s.waitingSince = e.nanos();
                }
                case "GRANT" -> {
                    s.waitingSince = -1;
                    s.holding = true;
                    s.grantNanos = e.nanos();
                }
                case "TIMEOUT", "ERROR" -> s.waitingSince = -1;
                case "LOST", "RELEASE", "STOP" -> s.holding = false;
                case "HELD" -> s.holding &= Boolean.parseBoolean(e.field(0));
                default -> {
                    // WRITE, ACCEPTED, REJECTED, RELEASED change nothing the nemeses aim by
                }
            }
        }
    }
}
