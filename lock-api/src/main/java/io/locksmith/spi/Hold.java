package io.locksmith.spi;

import java.util.Objects;

/**
 * What kind of hold an acquisition asks for. A backend says which kinds it keeps
 * ({@link LockBackend#holds()}); the core asks only for those.
 *
 * <h2>Three families, three namespaces</h2>
 * A lock ({@link Kind#EXCLUSIVE}), a semaphore ({@link Kind#PERMIT}) and a read-write lock
 * ({@link Kind#READ}, {@link Kind#WRITE}) are three families. A backend keeps each family's keys
 * in a namespace of its own: the lock {@code x}, the semaphore {@code x} and the read-write lock
 * {@code x} never affect each other, whatever the key. Within a family, holds of one key are
 * compatible as follows:
 * <ul>
 *   <li>{@code EXCLUSIVE}: one holder at a time.
 *   <li>{@code PERMIT}: at most {@link #permits()} holders at a time. Every holder of a key asks
 *       for the same number of permits: while a key has holders, an acquisition asking for another
 *       number fails with {@link io.locksmith.PermitMismatchException} naming both numbers. Once
 *       the key has no holder, the next acquisition sets the number.
 *   <li>{@code READ}: any number of readers at a time, and no writer while they hold.
 *   <li>{@code WRITE}: one writer at a time, and no reader while it holds. A writer that waits is
 *       not starved by readers: a backend with a native queue grants in queue order (a reader
 *       queued behind a waiting writer waits for it); a backend without one marks the key when a
 *       writer's attempt finds it held, and grants no new reader while the mark lasts. The mark
 *       lasts one to two of the writer's leases from its latest attempt (twice where the backend
 *       times it; one on a backend whose mark is itself a lease, as Azure's), and ends when the
 *       writer is granted or gives up ({@link LockBackend#abandon}, which the core calls whenever
 *       a writer stops waiting without a grant).
 * </ul>
 *
 * <p>Fencing tokens are per key within a family: each grant's token is strictly greater than the
 * token of every grant of the key made before it, whichever permit or side it holds. A backend
 * whose queue position orders grants differently than they are made (two permits granted by one
 * release) takes the token when the grant is made (an etcd revision or ZooKeeper zxid of a write
 * at grant time, a counter bumped in the grant's own step).
 */
public final class Hold {

    /** The kinds of hold. */
    public enum Kind {
        /** A lock: one holder of the key at a time. */
        EXCLUSIVE,
        /** A semaphore's permit: at most {@link Hold#permits()} holders at a time. */
        PERMIT,
        /** A read-write lock's read side: shared with other readers, never with a writer. */
        READ,
        /** A read-write lock's write side: one writer, no readers. */
        WRITE
    }

    /** A lock: one holder of the key at a time. */
    public static final Hold EXCLUSIVE = new Hold(Kind.EXCLUSIVE, 1);

    /** A read-write lock's read side. */
    public static final Hold READ = new Hold(Kind.READ, Integer.MAX_VALUE);

    /** A read-write lock's write side. */
    public static final Hold WRITE = new Hold(Kind.WRITE, 1);

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

    /**
     * @return how many holders the key admits at a time: 1 for exclusive and write holds, the
     *     semaphore's permits, {@link Integer#MAX_VALUE} for read holds
     */
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
            case PERMIT -> "one permit of " + permits;
            case READ -> "read";
            case WRITE -> "write";
        };
    }
}
