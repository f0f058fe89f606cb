package io.locksmith.tck;

import io.locksmith.LockClient;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

/** {@code asLock()}: a backend error neither fakes a hold for the thread nor locks other threads out. */
interface AdapterRules extends Rules {

    /** A tryLock call that may throw, as the adapter does when the backend fails. */
    interface Attempt {
        boolean tryLock() throws InterruptedException;
    }

    @Test
    default void required_asLockAfterABackendErrorNeitherFakesNorWedgesTheLock() throws Exception {
        LockContract c = contract();
        String name = c.name("adapter");
        LockClient client = c.client();
        Lock lock = client.lock(name).asLock();
        c.fault(Fault.CUT_CONNECTION, () -> c.faults().cutConnection(client));
        try {
            c.check(!quietly(lock::tryLock), "tryLock() must not return true while the backend is unreachable");
            c.check(
                    !quietly(lock::tryLock),
                    "after a backend error in tryLock(), the same thread's next tryLock()"
                            + " returned true without the distributed lock");
            Attempt timed = () -> lock.tryLock(50, TimeUnit.MILLISECONDS);
            c.check(!quietly(timed), "tryLock(time, unit) must not return true while the backend is unreachable");
            c.check(
                    !quietly(timed),
                    "after a backend error in tryLock(time, unit), the same thread's next"
                            + " tryLock(time, unit) returned true without the distributed lock");
        } finally {
            c.faults().restoreConnection(client);
        }
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Boolean> taken = CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            if (!lock.tryLock(c.margin().toMillis(), TimeUnit.MILLISECONDS)) {
                                return false;
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return false;
                        }
                        try {
                            c.check(
                                    c.client().lock(name).tryAcquire().isEmpty(),
                                    "a thread that holds the adapter must hold the distributed lock");
                            return true;
                        } finally {
                            lock.unlock();
                        }
                    },
                    other);
            c.check(
                    c.complete(taken, c.margin().multipliedBy(3), "another thread's tryLock must finish"),
                    "after a backend error in tryLock(), another thread must be able to lock once the backend is back");
        } finally {
            other.shutdownNow();
        }
        c.check(
                c.client()
                        .lock(name)
                        .tryAcquire(c.margin())
                        .map(h -> {
                            h.close();
                            return true;
                        })
                        .orElse(false),
                "after the adapter was unlocked the distributed lock must be free");
    }

    /** @return what the attempt returned, or false if it threw, as a backend error makes it */
    private static boolean quietly(Attempt attempt) throws InterruptedException {
        try {
            return attempt.tryLock();
        } catch (RuntimeException backendError) {
            return false;
        }
    }
}
