package io.locksmith;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What {@link DistributedLock#status()} saw: a lock free, held (by whom, with which token, for how
 * long), or unknown when the backend cannot tell without taking the lock.
 */
public final class LockStatus {

    /** Whether the lock was seen free or held, or could not be seen. */
    public enum State {
        /** Nobody held the lock. */
        FREE,
        /** An owner held the lock. */
        HELD,
        /** The backend cannot tell without taking the lock. */
        UNKNOWN
    }

    private final String name;
    private final State state;
    private final String owner;
    private final long token;
    private final Duration remaining;

    private LockStatus(String name, State state, String owner, long token, Duration remaining) {
        this.name = Objects.requireNonNull(name, "name");
        this.state = state;
        this.owner = owner;
        this.token = token;
        this.remaining = remaining;
    }

    /**
     * @param name the lock's name
     * @return a free lock's status
     */
    public static LockStatus free(String name) {
        return new LockStatus(name, State.FREE, null, 0, null);
    }

    /**
     * @param name the lock's name
     * @param owner the holder's owner id
     * @param token the holder's fencing token
     * @param remaining the holder's remaining lease, or null if unknown
     * @return a held lock's status
     */
    public static LockStatus held(String name, String owner, long token, Duration remaining) {
        return new LockStatus(name, State.HELD, Objects.requireNonNull(owner, "owner"), token, remaining);
    }

    /**
     * @param name the lock's name
     * @return the status of a lock whose backend cannot tell
     */
    public static LockStatus unknown(String name) {
        return new LockStatus(name, State.UNKNOWN, null, 0, null);
    }

    /** @return the lock's name */
    public String name() {
        return name;
    }

    /** @return free, held or unknown */
    public State state() {
        return state;
    }

    /** @return the holder's owner id (process id, client and grant), if held */
    public Optional<String> owner() {
        return Optional.ofNullable(owner);
    }

    /** @return the holder's fencing token, if held */
    public OptionalLong fencingToken() {
        return state == State.HELD ? OptionalLong.of(token) : OptionalLong.empty();
    }

    /** @return the holder's remaining lease by the backend's clock, if held and known */
    public Optional<Duration> remainingLease() {
        return Optional.ofNullable(remaining);
    }

    @Override
    public String toString() {
        return switch (state) {
            case FREE -> name + ": free";
            case UNKNOWN -> name + ": unknown (the backend cannot tell without taking the lock)";
            case HELD ->
                name + ": held by " + owner + ", token " + token
                        + (remaining == null ? "" : ", " + remaining.toMillis() + " ms left");
        };
    }
}
