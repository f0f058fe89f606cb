package io.locksmith.internal;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LossReason;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.BackendScheduler;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The client behind {@link LockClient}: one backend, one timer thread, a pool of worker threads
 * for waiting, renewal and loss callbacks, and the {@link LeaseKeeper} for its held locks.
 */
final class DefaultLockClient implements LockClient {

    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final LockBackend backend;
    private final LockOptions options;
    private final String ownerPrefix;
    private final AtomicLong ownerSequence = new AtomicLong();
    private final CoreClock clock;
    private final ExecutorService workers;
    private volatile LeaseKeeper keeper;
    private volatile SignalHub signals;
    private final HeldTableView heldLeases;
    private final AtomicBoolean closed = new AtomicBoolean();
    // acquisitions in flight, each with its lock's name: close() ends them all
    private final Map<CompletableFuture<LockHandle>, String> acquiring = new java.util.concurrent.ConcurrentHashMap<>();

    private DefaultLockClient(BackendContext.Builder context, Function<BackendContext, LockBackend> backends,
            LockOptions options, CoreClock clock) {
        int id = CLIENTS.incrementAndGet();
        this.options = options;
        this.ownerPrefix = ProcessHandle.current().pid() + "-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + "-";
        this.clock = clock == null ? CoreClock.system("locksmith-" + id + "-timer") : clock;
        ExecutorService pool = Executors.newCachedThreadPool(threads("locksmith-" + id + "-worker"));
        this.workers = clock == null ? pool : new InFlightWorkers(pool);
        this.heldLeases = new HeldTableView();
        try {
            this.backend = backends.apply(context.lockOptions(options).events(events()).scheduler(scheduler())
                    .heldLeases(heldLeases).ticker(this.clock).build());
        } catch (RuntimeException e) {
            this.clock.shutdown();
            workers.shutdownNow();
            throw e;
        }
        this.keeper = new LeaseKeeper(backend, this.clock, workers);
        this.signals = backend.releaseSignals().map(SignalHub::new).orElse(null);
        this.heldLeases.keeper = keeper;
        checkLease(options.lease());
    }

    /** Opens a provider's backend inside a new client, decorated as asked. */
    static LockClient open(LockProvider provider, String scheme, String location, Map<String, String> backendOptions,
            LockOptions options, java.util.function.UnaryOperator<LockBackend> decorator) {
        return new DefaultLockClient(BackendContext.builder(scheme, location).options(backendOptions),
                context -> decorated(provider.open(context), decorator), options, null);
    }

    private static LockBackend decorated(LockBackend backend, java.util.function.UnaryOperator<LockBackend> decorator) {
        try {
            return java.util.Objects.requireNonNull(decorator.apply(backend), "the decorator returned no backend");
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** Wraps a backend that a provider module builds around an existing client object. */
    static LockClient wrap(Function<BackendContext, LockBackend> backend, LockOptions options) {
        return new DefaultLockClient(BackendContext.builder("custom", ""), backend, options, null);
    }

    /** Wraps a backend in a client that runs on the given clock (the core's tests). */
    static DefaultLockClient onClock(Function<BackendContext, LockBackend> backend, LockOptions options,
            CoreClock clock) {
        return new DefaultLockClient(BackendContext.builder("custom", ""), backend, options, clock);
    }

    private BackendEvents events() {
        return new BackendEvents() {
            @Override
            public void lost(String key, String owner, LossReason reason) {
                LeaseKeeper k = keeper;
                if (k != null) {
                    k.lose(owner, reason);
                }
            }

            @Override
            public void allLost(LossReason reason) {
                LeaseKeeper k = keeper;
                if (k != null) {
                    k.loseAll(reason);
                }
            }

            @Override
            public void released(String key) {
                SignalHub s = signals;
                if (s != null) {
                    s.signalled(key);
                }
            }
        };
    }

    /** The backend's share of the client's timer and workers: tasks are timed here and run on a worker. */
    private BackendScheduler scheduler() {
        return new BackendScheduler() {
            @Override
            public Scheduled schedule(Runnable task, Duration delay) {
                try {
                    return clock.schedule(() -> onWorker(guarded(task)), delay.toNanos());
                } catch (RejectedExecutionException closing) {
                    return () -> {};
                }
            }

            @Override
            public Scheduled every(Runnable task, Duration period) {
                AtomicBoolean running = new AtomicBoolean();
                Runnable once = guarded(() -> {
                    if (running.compareAndSet(false, true)) {
                        try {
                            task.run();
                        } finally {
                            running.set(false);
                        }
                    }
                });
                Periodic p = new Periodic(once, period.toNanos());
                p.next();
                return p;
            }

            @Override
            public void execute(Runnable task) {
                try {
                    workers.execute(guarded(task));
                } catch (RejectedExecutionException closing) {
                    // the client is closed: the backend's work is over
                }
            }
        };
    }

    /** A backend's periodic task: due every period from the last due time, each run on a worker. */
    private final class Periodic implements BackendScheduler.Scheduled {
        private final Runnable task;
        private final long periodNanos;
        private long due = clock.nanoTime();
        private BackendScheduler.Scheduled next;
        private boolean cancelled;

        Periodic(Runnable task, long periodNanos) {
            this.task = task;
            this.periodNanos = periodNanos;
        }

        synchronized void next() {
            if (cancelled) {
                return;
            }
            due += periodNanos;
            try {
                next = clock.schedule(() -> {
                    onWorker(task);
                    next();
                }, due - clock.nanoTime());
            } catch (RejectedExecutionException closing) {
                cancelled = true;
            }
        }

        @Override
        public synchronized void cancel() {
            cancelled = true;
            if (next != null) {
                next.cancel();
            }
        }
    }

    private Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                org.slf4j.LoggerFactory.getLogger(DefaultLockClient.class)
                        .warn("a scheduled task of {} failed; it runs again if it is periodic", backend(), e);
            }
        };
    }

    /** The core's table of held leases as the backend sees it; empty until the keeper exists. */
    private static final class HeldTableView implements io.locksmith.spi.HeldLeases {
        volatile LeaseKeeper keeper;

        @Override
        public java.util.List<io.locksmith.spi.HeldLease> on(String key) {
            LeaseKeeper k = keeper;
            return k == null ? java.util.List.of() : k.on(key);
        }

        @Override
        public java.util.List<io.locksmith.spi.HeldLease> all() {
            LeaseKeeper k = keeper;
            return k == null ? java.util.List.of() : k.all();
        }
    }

    private void checkLease(Duration lease) {
        try {
            validateLease(lease);
        } catch (LockConfigurationException e) {
            close();
            throw e;
        }
    }

    /** @throws LockConfigurationException if the backend cannot keep a lease this long */
    void validateLease(Duration lease) {
        keeper.validateLease(lease);
    }

    @Override
    public DistributedLock lock(String name) {
        Arguments.lockName(name);
        ensureOpen(name);
        return new DefaultDistributedLock(this, name, options.lease(), options.autoRenew());
    }

    @Override
    public LockOptions options() {
        return options;
    }

    @Override
    public String backend() {
        LockBackend b = backend;
        return b == null ? "a backend being opened" : b.description();
    }

    LockBackend backendImpl() {
        return backend;
    }

    /** @return the shared release signals, or null if the backend has none */
    SignalHub signals() {
        return signals;
    }

    LeaseKeeper keeper() {
        return keeper;
    }

    CoreClock clock() {
        return clock;
    }

    /** @return whether no worker task is queued or running (a client on a hand-moved clock only) */
    boolean workersIdle() {
        return ((InFlightWorkers) workers).idle();
    }

    ExecutorService workers() {
        return workers;
    }

    String keyFor(String name) {
        String prefix = options.prefix();
        return prefix.isEmpty() ? name : prefix + ":" + name;
    }

    String nextOwner() {
        return ownerPrefix + ownerSequence.incrementAndGet();
    }

    /**
     * Tracks an acquisition until it completes, so that {@link #close()} can end it: a closed
     * client's timer and workers would never run its retries or its deadline.
     */
    CompletableFuture<LockHandle> track(CompletableFuture<LockHandle> acquisition, String lockName) {
        acquiring.put(acquisition, lockName);
        acquisition.whenComplete((h, e) -> acquiring.remove(acquisition));
        if (closed.get()) {
            acquisition.completeExceptionally(closedWhileWaiting(lockName));
        }
        return acquisition;
    }

    io.locksmith.LockClientClosedException closedWhileWaiting(String lockName) {
        return new io.locksmith.LockClientClosedException(lockName, backend.description(), "waiting");
    }

    /**
     * Runs work on the workers, never on the timer: the timer's one thread serves every deadline
     * and renewal of the client, so nothing that may call the backend (or a user's dependent
     * stage of a future) runs there. Runs it here if the workers are shut down.
     */
    void onWorker(Runnable work) {
        try {
            workers.execute(work);
        } catch (RejectedExecutionException e) {
            work.run();
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    void ensureOpen(String lockName) {
        if (closed.get()) {
            throw new io.locksmith.LockClientClosedException(lockName, backend.description(), null);
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            for (Map.Entry<CompletableFuture<LockHandle>, String> a : acquiring.entrySet()) {
                a.getKey().completeExceptionally(closedWhileWaiting(a.getValue()));
            }
            if (keeper != null) {
                keeper.releaseAll();
            }
        } finally {
            clock.shutdown();
            workers.shutdown();
            backend.close();
        }
    }

    @Override
    public String toString() {
        return "LockClient[" + backend.description() + ", " + options + (closed.get() ? ", closed" : "") + "]";
    }

    private static ThreadFactory threads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
