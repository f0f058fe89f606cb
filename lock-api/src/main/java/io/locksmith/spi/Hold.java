package io.locksmith.spi;

import java.util.Objects;

/**
 * What kind of hold an acquisition asks for: the whole key ({@link #EXCLUSIVE}), a share of it
 * that other shared holds may have at the same time ({@link #SHARED}), or one of a fixed number
 * of permits ({@link #permitOf(int)}). A backend says which kinds it keeps
 * ({@link LockBackend#holds()}); the core asks only for those.
 */
public final class Hold {

    /** The kinds of hold. */
    public enum Kind {
        /** One holder of the key at a time. */
        EXCLUSIVE,
        /** Any number of shared holders at a time, and no exclusive one while they hold. */
        SHARED,
        /** At most {@link Hold#permits()} holders at a time. */
        PERMIT
    }

    /** The whole key: one holder at a time. */
    public static final Hold EXCLUSIVE = new Hold(Kind.EXCLUSIVE, 1);

    /** A share of the key, held beside other shares but never beside an exclusive hold. */
    public static final Hold SHARED = new Hold(Kind.SHARED, Integer.MAX_VALUE);

    private final Kind kind;
    private final int permits;

    private Hold(Kind kind, int permits) {
        this.kind = kind;
        this.permits = permits;
    }

    /**
     * @param permits how many holders the key admits at a time; every holder of a key must agree
     * @return one permit of {@code permits}
     * @throws IllegalArgumentException if {@code permits} is below 1
     */
    public static Hold permitOf(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1, was " + permits);
        }
        return new Hold(Kind.PERMIT, permits);
    }

    /** @return the kind */
    public Kind kind() {
        return kind;
    }

    /** @return how many holders the key admits at a time: 1 for exclusive, unbounded for shared */
    public int permits() {
        return permits;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Hold h && h.kind == kind && h.permits == permits;
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, permits);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case EXCLUSIVE -> "exclusive";
            case SHARED -> "shared";
            case PERMIT -> "one permit of " + permits;
        };
    }
}
