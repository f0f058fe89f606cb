package io.locksmith.internal;

import io.locksmith.LockHandle;
import io.locksmith.LockInterruptedException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link Lock} over a distributed lock: a local {@link ReentrantLock} makes it thread-owned and
 * reentrant, and the distributed lock is taken on the first hold and released on the last.
 */
final class JucLock implements Lock {

    private static final Duration FOREVER = Duration.ofSeconds(Long.MAX_VALUE);

    private final DefaultDistributedLock lock;
    private final ReentrantLock local = new ReentrantLock();
    private LockHandle handle;

    JucLock(DefaultDistributedLock lock) {
        this.lock = lock;
    }

    @Override
    public void lock() {
        local.lock();
        if (local.getHoldCount() == 1) {
            boolean interrupted = false;
            while (handle == null) {
                try {
                    handle = lock.acquire(FOREVER);
                } catch (LockInterruptedException e) {
                    interrupted = Thread.interrupted(); // lock() is not interruptible: keep waiting
                } catch (RuntimeException e) {
                    local.unlock();
                    throw e;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        local.lockInterruptibly();
        if (local.getHoldCount() == 1) {
            try {
                handle = lock.acquire(FOREVER);
            } catch (LockInterruptedException e) {
                local.unlock();
                Thread.interrupted();
                throw new InterruptedException("interrupted while waiting for lock '" + lock.name() + "'");
            } catch (RuntimeException e) {
                local.unlock();
                throw e;
            }
        }
    }

    @Override
    public boolean tryLock() {
        if (!local.tryLock()) {
            return false;
        }
        if (local.getHoldCount() > 1) {
            return true;
        }
        Optional<LockHandle> taken;
        try {
            taken = lock.tryAcquire();
        } catch (RuntimeException e) {
            local.unlock(); // no distributed lock: the local one must not outlive the failure
            throw e;
        }
        return takeIfFirst(taken);
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        long start = lock.runtime().clock.nanoTime();
        long waitNanos = Math.max(0, unit.toNanos(time));
        if (!local.tryLock(waitNanos, TimeUnit.NANOSECONDS)) {
            return false;
        }
        if (local.getHoldCount() > 1) {
            return true;
        }
        long left = Math.max(0, waitNanos - (lock.runtime().clock.nanoTime() - start));
        Optional<LockHandle> taken;
        try {
            taken = lock.tryAcquire(Duration.ofNanos(left));
        } catch (LockInterruptedException e) {
            local.unlock();
            Thread.interrupted();
            throw new InterruptedException("interrupted while waiting for lock '" + lock.name() + "'");
        } catch (RuntimeException e) {
            local.unlock(); // no distributed lock: the local one must not outlive the failure
            throw e;
        }
        return takeIfFirst(taken);
    }

    private boolean takeIfFirst(Optional<LockHandle> taken) {
        if (taken.isEmpty()) {
            local.unlock();
            return false;
        }
        handle = taken.get();
        return true;
    }

    @Override
    public void unlock() {
        if (!local.isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("lock '" + lock.name() + "' is not held by this thread");
        }
        if (local.getHoldCount() == 1) {
            LockHandle h = handle;
            handle = null;
            try {
                h.close();
            } finally {
                local.unlock();
            }
        } else {
            local.unlock();
        }
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("conditions are not supported by distributed locks");
    }

    @Override
    public String toString() {
        return "Lock[" + lock.name() + (local.isLocked() ? ", locked" : ", unlocked") + "]";
    }
}
