package io.locksmith.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Every history file of one run, merged into one list in time order. A last line cut short by a
 * kill (no line end, or not parseable) is dropped: it records a step that had not finished.
 *
 * @param events every event of the run, oldest first
 */
public record History(List<Event> events) {

    /** @param events every event of the run, in any order; kept sorted by time */
    public History {
        List<Event> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(Event::nanos));
        events = List.copyOf(sorted);
    }

    /**
     * Reads and merges history files.
     *
     * @param files the files of the workers, the controller and the ledger
     * @return the run's history
     */
    public static History read(List<Path> files) {
        List<Event> events = new ArrayList<>();
        for (Path f : files) {
            String text;
            try {
                text = Files.readString(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read history file " + f, e);
            }
            int end = text.lastIndexOf('\n');
            for (String line : text.substring(0, end + 1).split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    events.add(Event.parse(line));
                } catch (IllegalArgumentException e) {
                    // a line torn by a kill in the middle of a write
                }
            }
        }
        return new History(events);
    }

    /**
     * @param source a worker's id, {@code controller} or {@code ledger}
     * @return that source's events, oldest first
     */
    public List<Event> of(String source) {
        return events.stream().filter(e -> e.source().equals(source)).toList();
    }
}
