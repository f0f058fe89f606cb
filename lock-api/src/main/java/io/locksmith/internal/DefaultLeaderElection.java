package io.locksmith.internal;

import io.locksmith.LeaderElection;
import io.locksmith.LockClientClosedException;
import io.locksmith.LockHandle;
import io.locksmith.LockInterruptedException;
import io.locksmith.LockStatus;
import io.locksmith.LockTimeoutException;
import io.locksmith.LossReason;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A participant in a leader election: it stands by waiting for the election's lock, leads while
 * it holds it, and stands again when it loses it. Its acquisitions' owners end in
 * {@value #SEPARATOR} and its identity, percent-encoded as UTF-8 ({@link URLEncoder}), so that the
 * lock's status tells who leads and every backend can store the owner as ASCII.
 */
final class DefaultLeaderElection implements LeaderElection {

    private static final Logger log = LoggerFactory.getLogger(DefaultLeaderElection.class);

    /** Between a participant's acquisition owner and its identity. */
    static final String SEPARATOR = "/";

    /** How long one standing waits; it stands again when that runs out. */
    private static final Duration STANDING = Duration.ofHours(1);

    /** The pause before standing again after a backend failure ended a standing. */
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ClientRuntime runtime;
    private final DefaultDistributedLock lock;
    private final String identity;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final ArrayDeque<Runnable> toTell = new ArrayDeque<>(); // guarded by itself
    private boolean telling; // guarded by toTell

    // guarded by this
    private boolean started;
    private boolean closed;
    private CompletableFuture<LockHandle> standing;
    private LockHandle leadership;

    DefaultLeaderElection(ClientRuntime runtime, String name, String identity) {
        this.runtime = runtime;
        this.identity = identity;
        this.lock = new DefaultDistributedLock(
                runtime,
                name,
                runtime.options.lease(),
                true,
                io.locksmith.spi.Hold.EXCLUSIVE,
                SEPARATOR + URLEncoder.encode(identity, StandardCharsets.UTF_8));
    }

    @Override
    public String name() {
        return lock.name();
    }

    @Override
    public String identity() {
        return identity;
    }

    @Override
    public synchronized LeaderElection start() {
        if (closed) {
            throw new IllegalStateException("the leader election '" + name() + "' of " + identity + " is closed");
        }
        runtime.ensureOpen(name());
        if (!started) {
            started = true;
            stand();
        }
        return this;
    }

    private synchronized void stand() {
        if (closed || runtime.isClosed()) {
            return;
        }
        CompletableFuture<LockHandle> next;
        try {
            next = lock.acquireAsync(STANDING);
        } catch (LockClientClosedException e) {
            return;
        }
        standing = next;
        next.whenComplete(this::answered);
    }

    private void answered(LockHandle handle, Throwable failure) {
        if (handle == null) {
            Throwable cause = failure instanceof CompletionException c && c.getCause() != null ? c.getCause() : failure;
            if (cause instanceof LockTimeoutException) {
                stand();
            } else if (!(cause instanceof java.util.concurrent.CancellationException)
                    && !(cause instanceof LockClientClosedException)
                    && !runtime.isClosed()) {
                log.warn(
                        "leader election '{}' on {}: standing failed, standing again in 1 s: {}",
                        name(),
                        runtime.description(),
                        cause.toString());
                try {
                    runtime.clock.schedule(() -> runtime.workers.run(this::stand), RETRY_NANOS);
                } catch (RejectedExecutionException closedMeanwhile) {
                    // the client closed: nothing to stand for
                }
            }
            return;
        }
        long term = handle.fencingToken();
        synchronized (this) {
            if (closed) {
                runtime.workers.run(handle::close);
                return;
            }
            leadership = handle;
            notifyAll();
        }
        handle.whenLost().thenAccept(reason -> revoked(handle, term, reason));
        tell(l -> l.elected(term));
    }

    private void revoked(LockHandle handle, long term, LossReason reason) {
        synchronized (this) {
            if (leadership != handle) {
                return;
            }
            leadership = null;
        }
        tell(l -> l.revoked(term, reason));
        stand();
    }

    /** Tells every listener, in order, on a worker: never on an I/O or timer thread, never two at once. */
    private void tell(java.util.function.Consumer<Listener> event) {
        List<Listener> now = List.copyOf(listeners);
        if (now.isEmpty()) {
            return;
        }
        synchronized (toTell) {
            toTell.add(() -> {
                for (Listener l : now) {
                    try {
                        event.accept(l);
                    } catch (RuntimeException e) {
                        log.warn("a leader election listener of '{}' failed", name(), e);
                    }
                }
            });
            if (telling) {
                return;
            }
            telling = true;
        }
        runtime.workers.run(this::drain);
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (toTell) {
                next = toTell.poll();
                if (next == null) {
                    telling = false;
                    return;
                }
            }
            next.run();
        }
    }

    @Override
    public boolean isLeader() {
        LockHandle h;
        synchronized (this) {
            h = leadership;
        }
        return h != null && h.isHeld();
    }

    @Override
    public OptionalLong term() {
        LockHandle h;
        synchronized (this) {
            h = leadership;
        }
        return h != null && h.isHeld() ? OptionalLong.of(h.fencingToken()) : OptionalLong.empty();
    }

    @Override
    public boolean awaitLeadership(Duration wait) {
        Arguments.notNegative("wait", wait);
        long deadline = System.nanoTime() + Waits.nanos(wait);
        synchronized (this) {
            while (!isLeader()) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || closed) {
                    return false;
                }
                try {
                    // woken when elected; the cap rechecks a leadership lost without a notice
                    TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LockInterruptedException(name(), e);
                }
            }
            return true;
        }
    }

    @Override
    public Optional<String> leader() {
        if (isLeader()) {
            return Optional.of(identity);
        }
        LockStatus status = lock.status();
        return status.owner().flatMap(DefaultLeaderElection::identityOf);
    }

    /** @return the identity in a participant's acquisition owner, if it is one */
    static Optional<String> identityOf(String owner) {
        int at = owner.indexOf(SEPARATOR);
        if (at < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(URLDecoder.decode(owner.substring(at + SEPARATOR.length()), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException notOurs) {
            return Optional.empty(); // an owner some other writer made
        }
    }

    @Override
    public LeaderElection addListener(Listener listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        OptionalLong term = term();
        if (term.isPresent()) {
            long t = term.getAsLong();
            runtime.workers.run(() -> listener.elected(t));
        }
        return this;
    }

    @Override
    public void close() {
        LockHandle h;
        CompletableFuture<LockHandle> s;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            h = leadership;
            leadership = null;
            s = standing;
            notifyAll();
        }
        if (s != null) {
            s.cancel(false);
        }
        if (h != null) {
            long term = h.fencingToken();
            boolean wasHeld = h.isHeld();
            h.close();
            if (wasHeld) {
                tell(l -> l.resigned(term));
            }
        }
    }

    @Override
    public String toString() {
        return "LeaderElection[" + name() + ", " + identity + (isLeader() ? ", leader" : "") + "]";
    }
}
