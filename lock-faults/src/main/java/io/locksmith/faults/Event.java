package io.locksmith.faults;

import java.util.List;
import java.util.Objects;

/**
 * One step a process took, as one line of its history: {@code NANOS SOURCE KIND FIELD...}.
 *
 * <p>Kinds written by a worker ({@code SOURCE} is the worker's id, {@code w1}, {@code w2}, …):
 * <ul>
 * <li>{@code START pid}: the worker runs;</li>
 * <li>{@code ATTEMPT}: before {@code acquire(wait)};</li>
 * <li>{@code GRANT token}: after {@code acquire} returned a handle;</li>
 * <li>{@code TIMEOUT}: the wait ended without the lock ({@code LockTimeoutException});</li>
 * <li>{@code ERROR type}: the wait ended with another exception (its simple class name);</li>
 * <li>{@code HELD true|false}: the answer of {@code isHeld()}; the time is taken <em>before</em>
 *     the call, so a {@code true} proves the worker believed it held at or after that time;</li>
 * <li>{@code WRITE token}, then {@code ACCEPTED token} or {@code REJECTED token}: one write to the
 *     fenced ledger per grant;</li>
 * <li>{@code LOST reason}: the handle's {@code onLost} callback ran;</li>
 * <li>{@code RELEASE} before {@code close()}, {@code RELEASED} after;</li>
 * <li>{@code STOP}: the worker ends normally.</li>
 * </ul>
 *
 * <p>Kinds written by the controller ({@code SOURCE} {@code controller}) name what a nemesis did
 * and to whom, each once it has taken effect:
 * <ul>
 * <li>{@code KILL w}, {@code PAUSE w}, {@code RESUME w}, {@code CUT w}, {@code RESTORE w}: a
 *     worker killed, stopped and continued, its connection cut and restored;</li>
 * <li>{@code SERVER_KILL}, {@code SERVER_PAUSE}, {@code SERVER_RESUME}: the server;</li>
 * <li>{@code LEADER_KILL}: a cluster's leader killed; {@code FAILOVER}: a Redis master killed
 *     for its replica to take over (Sentinel or Cluster); each ends with {@code SERVER_UP} once
 *     the killed server runs again, as a {@code SERVER_KILL} does;</li>
 * <li>{@code COMPACT revision}: etcd's history compacted up to that revision;</li>
 * <li>{@code MIGRATE slot} when a Redis Cluster slot starts to move to another master, and
 *     {@code MIGRATED slot} once every node agrees on its new owner;</li>
 * </ul>
 * and how the run ends: {@code STOPPING} just before it signals the workers to stop (no grant is
 * owed after it); {@code EXIT w code} for each worker process that exited ({@code 137} for a
 * killed thread worker, as for a process killed by SIGKILL); {@code HUNG w} for one still running
 * 30 s after the signal, which is then killed and has no {@code EXIT} line; and
 * {@code END}. The ledger ({@code SOURCE} {@code ledger}) writes {@code ACCEPT w token} and
 * {@code REJECT w token highest}.
 *
 * @param nanos  when, on {@link System#nanoTime()}
 * @param source who wrote it: a worker's id, {@code controller} or {@code ledger}
 * @param kind   what happened
 * @param fields the kind's fields, none containing white space
 */
public record Event(long nanos, String source, String kind, List<String> fields) {

    /** The controller's name as a {@link #source()}. */
    public static final String CONTROLLER = "controller";
    /** The ledger's name as a {@link #source()}. */
    public static final String LEDGER = "ledger";

    /**
     * @param nanos  when, on {@link System#nanoTime()}
     * @param source who wrote it
     * @param kind   what happened
     * @param fields the kind's fields
     */
    public Event {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(kind, "kind");
        fields = List.copyOf(fields);
    }

    /**
     * @param index which field, from 0
     * @return that field
     * @throws IllegalStateException if the event has fewer fields
     */
    public String field(int index) {
        if (index >= fields.size()) {
            throw new IllegalStateException("event has no field " + index + ": " + line());
        }
        return fields.get(index);
    }

    /** @return the event as one history line, without the line end */
    public String line() {
        StringBuilder b = new StringBuilder()
                .append(nanos)
                .append(' ')
                .append(source)
                .append(' ')
                .append(kind);
        for (String f : fields) {
            b.append(' ').append(f);
        }
        return b.toString();
    }

    /**
     * Reads one history line.
     *
     * @param line a line as {@link #line()} writes it
     * @return the event
     * @throws IllegalArgumentException if the line is not one
     */
    public static Event parse(String line) {
        String[] parts = line.trim().split(" +");
        if (parts.length < 3) {
            throw new IllegalArgumentException("not a history line: " + line);
        }
        long nanos;
        try {
            nanos = Long.parseLong(parts[0]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a history line (no time first): " + line, e);
        }
        return new Event(nanos, parts[1], parts[2], List.of(parts).subList(3, parts.length));
    }

    @Override
    public String toString() {
        return line();
    }
}
