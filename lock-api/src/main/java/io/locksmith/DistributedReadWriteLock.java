package io.locksmith;

/**
 * A read-write lock shared by every client of the same backend: many readers at a time, or one
 * writer and no reader. Each side is a {@link DistributedLock}, with leases, renewal, loss reports
 * and fencing tokens (strictly increasing across both sides' grants).
 *
 * <pre>{@code
 * DistributedReadWriteLock prices = locks.readWriteLock("price-table");
 * try (LockHandle reading = prices.readLock().acquire(Duration.ofSeconds(5))) {
 *     quote(order);
 * }
 * try (LockHandle writing = prices.writeLock().acquire(Duration.ofMinutes(1))) {
 *     rebuild();
 * }
 * }</pre>
 *
 * <p>A waiting writer is not starved by a stream of readers: once a writer waits, no new reader is
 * granted until it has held and released the lock or stopped waiting. docs/semantics.md says how
 * each backend keeps that promise. A read-write lock's names are its own: the read-write lock
 * {@code x}, the lock {@code x} and the semaphore {@code x} are unrelated.
 */
public interface DistributedReadWriteLock {

    /** @return the name, as given (without the client's prefix) */
    String name();

    /** @return the read side: shared with other readers, never with a writer */
    DistributedLock readLock();

    /** @return the write side: one writer, no readers */
    DistributedLock writeLock();

    /**
     * Looks at the lock without taking it.
     *
     * @return one status per holder (readers, or the writer), with {@link LockStatus#owner()} and
     *     the token of each
     * @throws UnsupportedOperationException if the backend cannot list a read-write lock's holders
     */
    java.util.List<LockStatus> holders();
}
