package io.locksmith.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A process's history file: each {@link #write} appends one line with one system call, before the
 * step it records goes on, so a process killed with {@code kill -9} loses nothing it logged (the
 * kernel keeps what was written). Safe for the threads of one process.
 */
public final class EventLog implements AutoCloseable {

    private final FileChannel file;
    private final String source;

    /**
     * Opens (or creates) a history file for appending.
     *
     * @param path   the file
     * @param source the name its lines carry: a worker's id, {@code controller}, {@code ledger}
     */
    public EventLog(Path path, String source) {
        this.source = source;
        try {
            this.file = FileChannel.open(
                    path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open history file " + path, e);
        }
    }

    /**
     * Logs one step, timed now.
     *
     * @param kind   what happened
     * @param fields its fields; {@code toString()} of each, white space replaced by {@code _}
     * @return the event written
     */
    public Event write(String kind, Object... fields) {
        return write(System.nanoTime(), kind, fields);
    }

    /**
     * Logs one step at a time taken earlier (such as just before the call it records).
     *
     * @param nanos  when, on {@link System#nanoTime()}
     * @param kind   what happened
     * @param fields its fields
     * @return the event written
     */
    public Event write(long nanos, String kind, Object... fields) {
        List<String> texts = new ArrayList<>(fields.length);
        for (Object f : fields) {
            String s = String.valueOf(f).replaceAll("\\s+", "_");
            texts.add(s.isEmpty() ? "_" : s);
        }
        Event event = new Event(nanos, source, kind, texts);
        ByteBuffer bytes = ByteBuffer.wrap((event.line() + "\n").getBytes(StandardCharsets.UTF_8));
        synchronized (file) {
            try {
                while (bytes.hasRemaining()) {
                    file.write(bytes);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write history line " + event.line(), e);
            }
        }
        return event;
    }

    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException e) {
            // nothing buffered: every line is already written
        }
    }
}
