package io.locksmith.spring;

import io.locksmith.LockHandle;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The lock a running {@link Locked} method holds, for its fencing token or to check that it is
 * still held. Bound to the thread that runs the method; in nested {@code @Locked} calls it is the
 * innermost one's.
 *
 * <pre>{@code
 * @Locked(name = "ledger")
 * void append(Entry entry) {
 *     ledger.write(entry, LockContext.current().fencingToken());
 * }
 * }</pre>
 */
public final class LockContext {

    private static final ThreadLocal<Deque<LockHandle>> HELD = ThreadLocal.withInitial(ArrayDeque::new);

    private LockContext() {}

    /**
     * @return the handle of the lock the running {@code @Locked} method holds
     * @throws IllegalStateException if this thread is not running a {@code @Locked} method
     */
    public static LockHandle current() {
        return find().orElseThrow(() -> new IllegalStateException(
                "no @Locked method is running on this thread, so it holds no lock: call LockContext.current()"
                        + " from within a @Locked method (on the thread that runs it)"));
    }

    /** @return the handle of the lock the running {@code @Locked} method holds, if any */
    public static Optional<LockHandle> find() {
        return Optional.ofNullable(HELD.get().peek());
    }

    static void push(LockHandle handle) {
        HELD.get().push(handle);
    }

    static void pop() {
        Deque<LockHandle> held = HELD.get();
        held.pop();
        if (held.isEmpty()) {
            HELD.remove();
        }
    }
}
