package io.locksmith.internal;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small backend for testing the core's machinery in isolation: it counts calls, can be made to
 * fail, to stall an attempt, and to queue waiters. Leases are not expired by this backend; the
 * tests here are about what the core does, and the real backends' tests cover expiry.
 */
final class TestBackend implements LockBackend {

    final Map<String, String> owners = new ConcurrentHashMap<>();
    final AtomicLong tokens = new AtomicLong();
    final AtomicInteger acquireCalls = new AtomicInteger();
    final AtomicInteger renewCalls = new AtomicInteger();
    final AtomicInteger releaseCalls = new AtomicInteger();
    final List<Integer> renewBatchSizes = java.util.Collections.synchronizedList(new ArrayList<>());
    volatile boolean failing;
    volatile CountDownLatch stallAcquire;
    volatile CountDownLatch stalled = new CountDownLatch(1);
    volatile boolean queued;
    /** A queue that grants a free key in the enqueue call itself, as etcd's put of the lowest key does. */
    volatile boolean grantAtEnqueue;

    final Map<String, CompletableFuture<Grant>> waiting = new ConcurrentHashMap<>();
    final AtomicInteger cancelled = new AtomicInteger();
    volatile Duration minimumLease = Duration.ofMillis(1);
    volatile boolean closed;
    volatile Duration holderLeft;
    volatile boolean signals;
    final Map<String, java.util.Set<Runnable>> listeners = new ConcurrentHashMap<>();
    final AtomicInteger enqueueCalls = new AtomicInteger();
    final AtomicInteger subscribeCalls = new AtomicInteger();
    final List<String> abandoned = java.util.Collections.synchronizedList(new ArrayList<>());
    /** Replaces renew when set: a test shapes the outcomes (short lists, stalls, errors). */
    volatile java.util.function.Function<List<HeldLease>, List<RenewOutcome>> renewHook;
    /** What {@link #renewalBatchLimit()} answers. */
    volatile int renewalBatchLimit = Integer.MAX_VALUE;
    /** Runs inside tryAcquire after the key was taken, before the grant returns (a backend's own events). */
    volatile java.util.function.Consumer<AcquireRequest> afterTake;
    /** Runs inside tryAcquire after the key was found held, before the refusal returns. */
    volatile java.util.function.Consumer<AcquireRequest> afterRefuse;
    /** Fails subscribe as a server refusing the channel would. */
    volatile boolean subscribeFails;
    /** Holds subscribe until counted down, then it fails or succeeds as {@link #subscribeFails} says. */
    volatile CountDownLatch subscribeStall;

    final CountDownLatch subscribing = new CountDownLatch(1);
    /** The kinds of hold it declares; every kind is kept as an exclusive hold of its key here. */
    volatile java.util.Set<io.locksmith.spi.Hold.Kind> holds = java.util.Set.of(io.locksmith.spi.Hold.Kind.EXCLUSIVE);
    /** Thrown by tryAcquire when set (a backend's refusal, such as a permit mismatch). */
    volatile RuntimeException refusal;
    /** Every request tried, in order. */
    final List<AcquireRequest> requests = java.util.Collections.synchronizedList(new ArrayList<>());
    /** The owners the core said were lost, in order. */
    final List<String> lostOwners = java.util.Collections.synchronizedList(new ArrayList<>());

    @Override
    public java.util.Set<io.locksmith.spi.Hold.Kind> holds() {
        return holds;
    }

    @Override
    public void lost(HeldLease lease, io.locksmith.LossReason reason) {
        lostOwners.add(lease.owner());
    }

    @Override
    public Optional<io.locksmith.spi.LockInspector> inspector() {
        return Optional.of(key -> Optional.ofNullable(owners.get(key))
                .map(owner -> new io.locksmith.spi.LockInspector.HolderState(owner, tokens.get(), null)));
    }

    @Override
    public String description() {
        return "test://backend";
    }

    @Override
    public Duration minimumLease() {
        return minimumLease;
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        acquireCalls.incrementAndGet();
        requests.add(request);
        fail(request.name());
        RuntimeException refused = refusal;
        if (refused != null) {
            throw refused;
        }
        CountDownLatch stall = stallAcquire;
        if (stall != null) {
            stalled.countDown();
            try {
                stall.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (owners.putIfAbsent(request.key(), request.owner()) == null) {
            long token = tokens.incrementAndGet();
            java.util.function.Consumer<AcquireRequest> hook = afterTake;
            if (hook != null) {
                hook.accept(request);
            }
            return Grant.of(token);
        }
        java.util.function.Consumer<AcquireRequest> refusedHook = afterRefuse;
        if (refusedHook != null) {
            refusedHook.accept(request);
        }
        Duration left = holderLeft;
        return left == null ? Held.UNKNOWN : Held.remaining(left);
    }

    @Override
    public int renewalBatchLimit() {
        return renewalBatchLimit;
    }

    @Override
    public List<RenewOutcome> renew(List<HeldLease> leases) {
        renewCalls.incrementAndGet();
        renewBatchSizes.add(leases.size());
        java.util.function.Function<List<HeldLease>, List<RenewOutcome>> hook = renewHook;
        if (hook != null) {
            return hook.apply(leases);
        }
        fail(leases.get(0).name());
        List<RenewOutcome> out = new ArrayList<>();
        for (HeldLease l : leases) {
            out.add(l.owner().equals(owners.get(l.key())) ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED);
        }
        return out;
    }

    @Override
    public boolean release(HeldLease lease) {
        releaseCalls.incrementAndGet();
        fail(lease.name());
        boolean released = owners.remove(lease.key(), lease.owner());
        if (released) {
            listeners.getOrDefault(lease.key(), java.util.Set.of()).forEach(Runnable::run);
        }
        return released;
    }

    @Override
    public void abandon(AcquireRequest request) {
        abandoned.add(request.owner());
        owners.remove(request.key(), request.owner());
    }

    /** Grants the key to the first queued waiter, as a queueing backend would on release. */
    void grantNext(String key) {
        grantNext(key, grant -> grant);
    }

    /** Grants the key to the first queued waiter, shaping the grant (its confirmation time). */
    void grantNext(String key, java.util.function.UnaryOperator<Grant> shape) {
        waiting.forEach((owner, future) -> {
            if (owners.putIfAbsent(key, owner) == null) {
                future.complete(shape.apply(Grant.of(tokens.incrementAndGet())));
            }
        });
    }

    /**
     * @param context a client's context
     * @return this backend as that client sees it: its release signals reach that client
     */
    LockBackend attach(io.locksmith.spi.BackendContext context) {
        return new io.locksmith.spi.ForwardingLockBackend(this) {
            private volatile boolean closed; // this client's view; the next client attaches anew

            @Override
            public Optional<io.locksmith.spi.ReleaseSignals> releaseSignals() {
                return TestBackend.this.releaseSignals(context.events());
            }

            @Override
            public boolean release(HeldLease lease) {
                if (closed) { // as a real backend's closed connections refuse it
                    throw new LockBackendException("test://backend is closed (lock '" + lease.name() + "')");
                }
                return super.release(lease);
            }

            @Override
            public void close() {
                closed = true;
                super.close();
            }
        };
    }

    @Override
    public Optional<io.locksmith.spi.ReleaseSignals> releaseSignals() {
        throw new IllegalStateException("a test opens a client over attach(context)");
    }

    private Optional<io.locksmith.spi.ReleaseSignals> releaseSignals(io.locksmith.spi.BackendEvents events) {
        if (!signals) {
            return Optional.empty();
        }
        return Optional.of(key -> {
            subscribeCalls.incrementAndGet();
            Runnable onRelease = () -> events.released(key);
            CountDownLatch stall = subscribeStall;
            if (stall != null) {
                subscribing.countDown();
                try {
                    stall.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (subscribeFails) {
                throw new LockBackendException("test://backend refused the subscription (NOPERM)");
            }
            listeners
                    .computeIfAbsent(key, k -> java.util.concurrent.ConcurrentHashMap.newKeySet())
                    .add(onRelease);
            return () -> listeners.get(key).remove(onRelease);
        });
    }

    @Override
    public Optional<QueuedAcquirer> queue() {
        if (!queued) {
            return Optional.empty();
        }
        return Optional.of(request -> {
            enqueueCalls.incrementAndGet();
            CompletableFuture<Grant> f = new CompletableFuture<>();
            if (grantAtEnqueue && owners.putIfAbsent(request.key(), request.owner()) == null) {
                f.complete(Grant.of(tokens.incrementAndGet()));
            }
            waiting.put(request.owner(), f);
            return new QueuedAcquirer.Ticket() {
                @Override
                public CompletableFuture<Grant> granted() {
                    return f;
                }

                @Override
                public void cancel() {
                    cancelled.incrementAndGet();
                    waiting.remove(request.owner());
                }
            };
        });
    }

    private void fail(String lock) {
        if (failing) {
            throw new LockBackendException("test://backend is unreachable (lock '" + lock + "')");
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
