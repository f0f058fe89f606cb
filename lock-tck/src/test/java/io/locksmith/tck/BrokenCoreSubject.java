package io.locksmith.tck;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LockStatus;
import io.locksmith.LockTimeoutException;
import io.locksmith.LossReason;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The sound reference provider behind a client that is wrong where the core, not a provider,
 * decides: a few rules guard the core, and no provider can break them through the SPI. Each
 * {@link Breakage} is a defect the core has had or could have.
 */
final class BrokenCoreSubject implements TckSubject {

    /** One way for the client to be wrong. */
    enum Breakage {
        /** Loss callbacks run on a single backend I/O thread, where one that blocks stalls the client. */
        CALLBACKS_ON_AN_IO_THREAD,
        /** Waiting acquisitions poll on their own and ignore the client's close, until their wait ends. */
        CLOSE_LEAVES_WAITS_RUNNING,
        /** asLock() keeps its local lock when the backend call throws, as the adapter once did. */
        AS_LOCK_KEEPS_THE_LOCAL_LOCK_ON_ERROR
    }

    private final Breakage breakage;
    private final ReferenceSubject sound = new ReferenceSubject(ReferenceSubject.Breakage.NONE);
    private final Map<LockClient, LockClient> inner = new ConcurrentHashMap<>();
    private final ExecutorService io = Executors.newSingleThreadExecutor(r -> daemon(r, "reference-io"));
    private volatile boolean closed;

    BrokenCoreSubject(Breakage breakage) {
        this.breakage = breakage;
    }

    @Override
    public String name() {
        return "reference/" + breakage;
    }

    @Override
    public LockClient newClient(LockOptions options) {
        LockClient real = sound.newClient(options);
        LockClient wrapped = new Client(real);
        inner.put(wrapped, real);
        return wrapped;
    }

    @Override
    public Faults faults() {
        Faults f = sound.faults();
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                f.removeLockState(key);
            }

            @Override
            public void cutConnection(LockClient client) {
                f.cutConnection(inner.get(client));
            }

            @Override
            public void restoreConnection(LockClient client) {
                f.restoreConnection(inner.get(client));
            }
        };
    }

    @Override
    public void close() {
        closed = true;
        io.shutdownNow();
        sound.close();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private final class Client implements LockClient {
        private final LockClient real;

        Client(LockClient real) {
            this.real = real;
        }

        @Override
        public DistributedLock lock(String name) {
            return new Named(real.lock(name));
        }

        @Override
        public LockOptions options() {
            return real.options();
        }

        @Override
        public String backend() {
            return real.backend();
        }

        @Override
        public void close() {
            real.close();
        }
    }

    private final class Named implements DistributedLock {
        private final DistributedLock real;

        Named(DistributedLock real) {
            this.real = real;
        }

        @Override
        public String name() {
            return real.name();
        }

        @Override
        public Optional<LockHandle> tryAcquire() {
            return real.tryAcquire().map(Handle::new);
        }

        @Override
        public Optional<LockHandle> tryAcquire(Duration wait) {
            try {
                return Optional.of(acquire(wait));
            } catch (LockTimeoutException e) {
                return Optional.empty();
            }
        }

        @Override
        public LockHandle acquire(Duration wait) {
            if (breakage != Breakage.CLOSE_LEAVES_WAITS_RUNNING) {
                return new Handle(real.acquire(wait));
            }
            long end = System.nanoTime() + wait.toNanos();
            do {
                try {
                    Optional<LockHandle> h = real.tryAcquire();
                    if (h.isPresent()) {
                        return new Handle(h.get());
                    }
                } catch (IllegalStateException clientClosed) {
                    // the defect: the wait goes on as if nothing had happened
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            } while (System.nanoTime() - end < 0 && !closed);
            throw new LockTimeoutException(real.name(), wait, "reference");
        }

        @Override
        public CompletableFuture<LockHandle> acquireAsync(Duration wait) {
            if (breakage != Breakage.CLOSE_LEAVES_WAITS_RUNNING) {
                return real.acquireAsync(wait).thenApply(Handle::new);
            }
            CompletableFuture<LockHandle> f = new CompletableFuture<>();
            daemon(
                            () -> {
                                try {
                                    f.complete(acquire(wait));
                                } catch (RuntimeException e) {
                                    f.completeExceptionally(e);
                                }
                            },
                            "reference-waiter")
                    .start();
            return f;
        }

        @Override
        public DistributedLock withLease(Duration lease) {
            return new Named(real.withLease(lease));
        }

        @Override
        public DistributedLock withAutoRenew(boolean autoRenew) {
            return new Named(real.withAutoRenew(autoRenew));
        }

        @Override
        public LockStatus status() {
            return real.status();
        }

        @Override
        public Lock asLock() {
            return breakage == Breakage.AS_LOCK_KEEPS_THE_LOCAL_LOCK_ON_ERROR
                    ? new KeepsLocalLock(this)
                    : real.asLock();
        }
    }

    private final class Handle implements LockHandle {
        private final LockHandle real;

        Handle(LockHandle real) {
            this.real = real;
        }

        @Override
        public String name() {
            return real.name();
        }

        @Override
        public long fencingToken() {
            return real.fencingToken();
        }

        @Override
        public boolean isHeld() {
            return real.isHeld();
        }

        @Override
        public Duration remainingLease() {
            return real.remainingLease();
        }

        @Override
        public LockHandle onLost(Runnable callback) {
            if (breakage == Breakage.CALLBACKS_ON_AN_IO_THREAD) {
                real.onLost(() -> io.execute(callback));
            } else {
                real.onLost(callback);
            }
            return this;
        }

        @Override
        public CompletionStage<LossReason> whenLost() {
            return real.whenLost();
        }

        @Override
        public void extend(Duration lease) {
            real.extend(lease);
        }

        @Override
        public void close() {
            real.close();
        }
    }

    /** The adapter as it was: the local lock is taken first and kept when the backend call throws. */
    private static final class KeepsLocalLock implements Lock {
        private final DistributedLock lock;
        private final ReentrantLock local = new ReentrantLock();
        private LockHandle handle;

        KeepsLocalLock(DistributedLock lock) {
            this.lock = lock;
        }

        @Override
        public boolean tryLock() {
            if (!local.tryLock()) {
                return false;
            }
            return local.getHoldCount() > 1 || taken(lock.tryAcquire());
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            if (!local.tryLock(time, unit)) {
                return false;
            }
            return local.getHoldCount() > 1 || taken(lock.tryAcquire(Duration.ofNanos(unit.toNanos(time))));
        }

        private boolean taken(Optional<LockHandle> h) {
            if (h.isEmpty()) {
                local.unlock();
                return false;
            }
            handle = h.get();
            return true;
        }

        @Override
        public void lock() {
            throw new UnsupportedOperationException("not needed by the rule");
        }

        @Override
        public void lockInterruptibly() {
            throw new UnsupportedOperationException("not needed by the rule");
        }

        @Override
        public void unlock() {
            if (local.getHoldCount() == 1 && handle != null) {
                handle.close();
                handle = null;
            }
            local.unlock();
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException();
        }
    }
}
