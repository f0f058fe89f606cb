package io.locksmith.consumers.spring;

import io.locksmith.spring.LockContext;
import io.locksmith.spring.Locked;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Service;

/** Restocks a product under its lock; a second request for the same product while one runs is skipped. */
@Service
public class Restocking {

    private volatile CountDownLatch pause = new CountDownLatch(0);
    private volatile CountDownLatch entered = new CountDownLatch(1);

    /**
     * @return the fencing token the restock ran under, or null if another restock of the product held
     *     the lock
     */
    @Locked(name = "restock:#{#product}", whenBusy = Locked.WhenBusy.SKIP)
    public Long restock(String product) throws InterruptedException {
        entered.countDown();
        pause.await(30, TimeUnit.SECONDS);
        return LockContext.current().fencingToken();
    }

    /** Makes the next restocks wait until {@link #resume()}, as a slow one would. */
    public void pause() {
        entered = new CountDownLatch(1);
        pause = new CountDownLatch(1);
    }

    /** @return whether a restock has started since {@link #pause()}, waiting up to 30 s for one */
    public boolean awaitStarted() throws InterruptedException {
        return entered.await(30, TimeUnit.SECONDS);
    }

    public void resume() {
        pause.countDown();
    }
}
