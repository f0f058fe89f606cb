package io.locksmith.internal;

import io.locksmith.DistributedLock;
import io.locksmith.DistributedReadWriteLock;
import io.locksmith.LockStatus;
import io.locksmith.spi.Hold;
import java.util.List;

/** A read-write lock: two locks of one key, asking for read and write holds. */
final class DefaultReadWriteLock implements DistributedReadWriteLock {

    private final DefaultDistributedLock read;
    private final DefaultDistributedLock write;

    DefaultReadWriteLock(ClientRuntime runtime, String name) {
        this.read = new DefaultDistributedLock(
                runtime, name, runtime.options.lease(), runtime.options.autoRenew(), Hold.READ, null);
        this.write = new DefaultDistributedLock(
                runtime, name, runtime.options.lease(), runtime.options.autoRenew(), Hold.WRITE, null);
    }

    @Override
    public String name() {
        return read.name();
    }

    @Override
    public DistributedLock readLock() {
        return read;
    }

    @Override
    public DistributedLock writeLock() {
        return write;
    }

    @Override
    public List<LockStatus> holders() {
        return DefaultSemaphore.holders(read, Hold.Kind.READ, "read-write lock");
    }

    @Override
    public String toString() {
        return "DistributedReadWriteLock[" + name() + "]";
    }
}
