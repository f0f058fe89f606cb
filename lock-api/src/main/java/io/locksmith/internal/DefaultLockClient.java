package io.locksmith.internal;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockOptions;
import io.locksmith.LossReason;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The client behind {@link LockClient}: one backend, one timer thread, a pool of worker threads
 * for waiting, renewal and loss callbacks, and the {@link ClientRuntime} they share with its locks.
 */
final class DefaultLockClient implements LockClient {

    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final ClientRuntime runtime;

    private DefaultLockClient(
            BackendContext.Builder context,
            Function<BackendContext, LockBackend> backends,
            LockOptions options,
            CoreClock givenClock) {
        int id = CLIENTS.incrementAndGet();
        CoreClock clock = givenClock == null ? CoreClock.system("locksmith-" + id + "-timer") : givenClock;
        String workerName = "locksmith-" + id + "-worker";
        ExecutorService pool = Executors.newCachedThreadPool(threads(workerName));
        Workers workers = new Workers(givenClock == null ? pool : new InFlightWorkers(pool), workerName + "-");
        HeldTable held = new HeldTable();
        Events events = new Events(held);
        LockBackend backend;
        try {
            backend = backends.apply(context.lockOptions(options)
                    .events(events)
                    .scheduler(new ClientScheduler(clock, workers, events::backend))
                    .heldLeases(held)
                    .ticker(clock)
                    .build());
        } catch (RuntimeException e) {
            clock.shutdown();
            workers.shutdownNow();
            throw e;
        }
        this.runtime = new ClientRuntime(backend, options, clock, workers, held);
        events.runtime = runtime;
        try {
            runtime.calls.validateLease(options.lease());
        } catch (LockConfigurationException e) {
            close();
            throw e;
        }
    }

    /** Opens a provider's backend inside a new client, decorated as asked. */
    static LockClient open(
            LockProvider provider,
            String scheme,
            String location,
            Map<String, String> backendOptions,
            LockOptions options,
            UnaryOperator<LockBackend> decorator) {
        return new DefaultLockClient(
                BackendContext.builder(scheme, location).options(backendOptions),
                context -> decorated(provider.open(context), decorator),
                options,
                null);
    }

    private static LockBackend decorated(LockBackend backend, UnaryOperator<LockBackend> decorator) {
        try {
            return Objects.requireNonNull(decorator.apply(backend), "the decorator returned no backend");
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
    static DefaultLockClient onClock(
            Function<BackendContext, LockBackend> backend, LockOptions options, CoreClock clock) {
        return new DefaultLockClient(BackendContext.builder("custom", ""), backend, options, clock);
    }

    /** What the backend reports on its own, handed to the client's table and signal hub. */
    private static final class Events implements BackendEvents {
        private final HeldTable held;
        private volatile ClientRuntime runtime;

        Events(HeldTable held) {
            this.held = held;
        }

        @Override
        public void lost(String key, String owner, LossReason reason) {
            held.lose(owner, reason);
        }

        @Override
        public void allLost(LossReason reason) {
            held.loseAll(reason);
        }

        @Override
        public void released(String key) {
            ClientRuntime r = runtime;
            if (r != null && r.signals != null) {
                r.signals.signalled(key);
            }
        }

        @Override
        public void released(String key, String next) {
            ClientRuntime r = runtime;
            if (r != null && r.signals != null) {
                r.signals.signalled(key, next);
            }
        }

        String backend() {
            ClientRuntime r = runtime;
            return r == null ? "a backend being opened" : r.description();
        }
    }

    @Override
    public DistributedLock lock(String name) {
        Arguments.lockName(name);
        runtime.ensureOpen(name);
        return new DefaultDistributedLock(runtime, name, runtime.options.lease(), runtime.options.autoRenew());
    }

    @Override
    public io.locksmith.DistributedSemaphore semaphore(String name, int permits) {
        Arguments.lockName(name);
        Arguments.permits(permits);
        runtime.ensureOpen(name);
        supports(io.locksmith.spi.Hold.Kind.PERMIT, "semaphores");
        return new DefaultSemaphore(new DefaultDistributedLock(
                runtime,
                name,
                runtime.options.lease(),
                runtime.options.autoRenew(),
                io.locksmith.spi.Hold.permitOf(permits),
                null));
    }

    @Override
    public io.locksmith.DistributedReadWriteLock readWriteLock(String name) {
        Arguments.lockName(name);
        runtime.ensureOpen(name);
        supports(io.locksmith.spi.Hold.Kind.READ, "read-write locks");
        supports(io.locksmith.spi.Hold.Kind.WRITE, "read-write locks");
        return new DefaultReadWriteLock(runtime, name);
    }

    @Override
    public io.locksmith.LeaderElection leaderElection(String name, String identity) {
        Arguments.lockName(name);
        Arguments.identity(identity);
        runtime.ensureOpen(name);
        return new DefaultLeaderElection(runtime, name, identity);
    }

    @Override
    public io.locksmith.RateLimiter rateLimiter(String name, int permits, java.time.Duration per) {
        Arguments.lockName(name);
        Arguments.permits(permits);
        Arguments.positive("per", per);
        runtime.ensureOpen(name);
        supports(io.locksmith.spi.Hold.Kind.PERMIT, "semaphores, on which rate limiters are built");
        runtime.calls.validateLease(per);
        return new DefaultRateLimiter(
                new DefaultDistributedLock(runtime, name, per, false, io.locksmith.spi.Hold.permitOf(permits), null),
                per);
    }

    private void supports(io.locksmith.spi.Hold.Kind kind, String what) {
        if (!runtime.backend.holds().contains(kind)) {
            throw new UnsupportedOperationException(runtime.description() + " keeps no " + what);
        }
    }

    @Override
    public io.locksmith.LockListener.Registration addListener(io.locksmith.LockListener listener) {
        runtime.ensureOpen(null);
        return runtime.listeners.add(listener);
    }

    @Override
    public LockOptions options() {
        return runtime.options;
    }

    @Override
    public String backend() {
        return runtime.description();
    }

    /** @return whether no worker task is queued or running (a client on a hand-moved clock only) */
    boolean workersIdle() {
        return runtime.workers.idle();
    }

    @Override
    public void close() {
        runtime.close();
    }

    @Override
    public String toString() {
        return "LockClient[" + runtime.description() + ", " + runtime.options + (runtime.isClosed() ? ", closed" : "")
                + "]";
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
