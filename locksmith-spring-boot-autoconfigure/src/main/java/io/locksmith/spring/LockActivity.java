package io.locksmith.spring;

import io.locksmith.LockHandle;
import io.locksmith.LockListener;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this instance's locks are doing now: the locks it holds and the acquisitions waiting, as
 * heard through {@link LockListener} from every client it is registered on, and the last renewal
 * batch. The {@code locks} actuator endpoint and the health indicator read it.
 *
 * <p>Holds are keyed by lock name and fencing token. The listener events carry no handle, so the
 * time left on a lease is known for the locks whose handle was {@link #attach attached} (those
 * taken by {@link Locked} methods) and unknown for the others. Listener methods only update
 * concurrent maps: they are called on the client's threads and must not block.
 */
public final class LockActivity implements LockListener {

    private final Clock clock;
    private final Map<Long, Waiter> waiters = new ConcurrentHashMap<>();
    private final Map<HoldKey, Entry> held = new ConcurrentHashMap<>();
    private volatile Renewal lastRenewal;

    /** Reads the time from the system clock. */
    public LockActivity() {
        this(Clock.systemUTC());
    }

    LockActivity(Clock clock) {
        this.clock = clock;
    }

    /**
     * A lock this instance holds.
     *
     * @param name the lock's name
     * @param fencingToken the grant's fencing token
     * @param heldSince when the hold began
     * @param leaseLeft the time left on the lease by this process's clock, or {@code null} if
     *     unknown (a lock not taken through {@link Locked})
     */
    public record HeldLock(String name, long fencingToken, Instant heldSince, Duration leaseLeft) {}

    /**
     * An acquisition waiting for its lock.
     *
     * @param name the lock's name
     * @param since when it began
     * @param maxWait how long it may wait at most
     */
    public record Waiter(String name, Instant since, Duration maxWait) {}

    /** @return the locks held now, by name */
    public List<HeldLock> held() {
        return held.values().stream()
                .map(Entry::toHeldLock)
                .sorted(Comparator.comparing(HeldLock::name).thenComparingLong(HeldLock::fencingToken))
                .toList();
    }

    /** @return the acquisitions waiting now, oldest first */
    public List<Waiter> waiters() {
        return waiters.values().stream()
                .sorted(Comparator.comparing(Waiter::since))
                .toList();
    }

    /** @return the last renewal batch a client reported, or {@code null} if none yet */
    public Renewal lastRenewal() {
        return lastRenewal;
    }

    /**
     * Adds a handle to its hold, so that the hold shows the time left on its lease.
     *
     * @param handle a handle just acquired
     */
    public void attach(LockHandle handle) {
        held.merge(
                new HoldKey(handle.name(), handle.fencingToken()),
                new Entry(handle.name(), handle.fencingToken(), clock.instant(), handle),
                (known, attached) -> known.attach(handle));
    }

    /**
     * Removes a hold whose handle was closed; the release event would too, this does not wait for it.
     *
     * @param handle the handle closed
     */
    public void detach(LockHandle handle) {
        held.remove(new HoldKey(handle.name(), handle.fencingToken()));
    }

    @Override
    public void acquisitionStarted(AcquisitionStarted event) {
        if (!event.maxWait().isZero()) {
            waiters.put(event.id(), new Waiter(event.lockName(), clock.instant(), event.maxWait()));
        }
    }

    @Override
    public void acquisitionEnded(AcquisitionEnded event) {
        waiters.remove(event.started().id());
    }

    @Override
    public void held(Hold event) {
        held.putIfAbsent(
                new HoldKey(event.lockName(), event.token()),
                new Entry(event.lockName(), event.token(), clock.instant(), null));
    }

    @Override
    public void released(HoldEnded event) {
        held.remove(new HoldKey(event.hold().lockName(), event.hold().token()));
    }

    @Override
    public void lost(HoldEnded event) {
        held.remove(new HoldKey(event.hold().lockName(), event.hold().token()));
    }

    @Override
    public void renewed(Renewal event) {
        lastRenewal = event;
    }

    private record HoldKey(String name, long token) {}

    /** A hold as kept: the handle, where known, gives the lease left when it is read. */
    private record Entry(String name, long token, Instant since, LockHandle handle) {

        Entry attach(LockHandle attached) {
            return new Entry(name, token, since, attached);
        }

        HeldLock toHeldLock() {
            return new HeldLock(name, token, since, handle == null ? null : handle.remainingLease());
        }
    }
}
