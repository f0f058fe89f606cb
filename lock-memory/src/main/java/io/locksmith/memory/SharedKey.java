package io.locksmith.memory;

import io.locksmith.PermitMismatchException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One key of a family that admits several holders: a semaphore's permits, or a read-write lock's
 * readers, its writer and the marks of writers waiting for it. The store keeps one per key in the
 * family's map and touches it only inside that map's {@code compute}, so each call below is one
 * atomic step, as one script on a server would be; the store drops the key once it is
 * {@link #isEmpty() empty}.
 *
 * <p>Expiry is by the store's clock: each call first forgets the holders and marks whose time
 * has passed, so an expired holder counts for nothing, as a server's expired key.
 */
final class SharedKey {

    private record Holding(Hold.Kind kind, long token, long expiresAt) {}

    private final Map<String, Holding> holders = new LinkedHashMap<>(); // by owner, in grant order
    private final Map<String, Long> writersWaiting = new HashMap<>(); // a waiting writer's owner -> mark's end
    private int permits; // the number the semaphore's holders agreed on; 0 for a read-write lock

    /**
     * One attempt, as {@link io.locksmith.spi.LockBackend#tryAcquire} describes it.
     *
     * @param tokens the store's token counter, bumped by a grant
     * @param backend the backend's description, for a permit mismatch
     * @throws PermitMismatchException if a permit asks for another number than the holders agreed on
     */
    AcquireResult acquire(AcquireRequest request, long now, LongSupplier tokens, String backend) {
        expire(now);
        Hold hold = request.hold();
        String owner = request.owner();
        long expiresAt = now + request.lease().toNanos();
        Holding mine = holders.get(owner);
        if (mine != null) { // an earlier attempt of this wait was granted and its answer lost
            holders.put(owner, new Holding(mine.kind, mine.token, expiresAt));
            writersWaiting.remove(owner);
            return Grant.of(mine.token);
        }
        if (hold.kind() == Hold.Kind.PERMIT && !holders.isEmpty() && permits != hold.permits()) {
            throw new PermitMismatchException(request.name(), permits, hold.permits(), backend);
        }
        Long blockedUntil = blockedUntil(hold);
        if (blockedUntil != null) {
            long left = blockedUntil - now;
            if (hold.kind() == Hold.Kind.WRITE) {
                writersWaiting.put(owner, now + 2 * request.lease().toNanos());
                // come back before the mark runs out, whatever the readers' leases
                left = Math.min(left, request.lease().toNanos());
            }
            return Held.remaining(Duration.ofNanos(Math.max(0, left)));
        }
        long token = tokens.getAsLong();
        holders.put(owner, new Holding(hold.kind(), token, expiresAt));
        writersWaiting.remove(owner);
        if (hold.kind() == Hold.Kind.PERMIT) {
            permits = hold.permits();
        }
        return Grant.of(token);
    }

    /**
     * @return when the earliest of what keeps the hold out may end (a holder's lease, a waiting
     *     writer's mark), or {@code null} if nothing does
     */
    private Long blockedUntil(Hold hold) {
        List<Long> blockers = new ArrayList<>();
        switch (hold.kind()) {
            case PERMIT -> {
                if (holders.size() >= permits) {
                    holders.values().forEach(h -> blockers.add(h.expiresAt));
                }
            }
            case READ -> {
                holders.values().stream()
                        .filter(h -> h.kind == Hold.Kind.WRITE)
                        .forEach(h -> blockers.add(h.expiresAt));
                blockers.addAll(writersWaiting.values()); // a reader's owner never waits as a writer
            }
            case WRITE -> holders.values().forEach(h -> blockers.add(h.expiresAt));
            case EXCLUSIVE -> throw new IllegalArgumentException("a lock is not a shared key: " + hold);
        }
        return blockers.stream().min(Long::compare).orElse(null);
    }

    /** @return whether the owner still held its grant of that token, whose lease now restarts */
    boolean renew(String owner, long token, long leaseNanos, long now) {
        expire(now);
        Holding h = holders.get(owner);
        if (h == null || h.token != token) {
            return false;
        }
        holders.put(owner, new Holding(h.kind, token, now + leaseNanos));
        return true;
    }

    /** @return whether the owner still held its grant of that token, which is now given back */
    boolean release(String owner, long token, long now) {
        expire(now);
        Holding h = holders.get(owner);
        return h != null && h.token == token && holders.remove(owner) != null;
    }

    /**
     * Gives up an attempt: drops the owner's grant, if an attempt took effect unanswered, and its
     * waiting mark, if it is a writer's.
     *
     * @return whether anything was dropped, which may let a waiter in
     */
    boolean abandon(String owner, long now) {
        expire(now);
        boolean held = holders.remove(owner) != null;
        boolean marked = writersWaiting.remove(owner) != null;
        return held || marked;
    }

    /** @return the live holders in grant order */
    List<LockInspector.Holder> holders(long now) {
        List<LockInspector.Holder> list = new ArrayList<>(holders.size());
        holders.forEach((owner, h) -> {
            if (h.expiresAt - now > 0) {
                list.add(new LockInspector.Holder(
                        h.kind, new LockInspector.HolderState(owner, h.token, Duration.ofNanos(h.expiresAt - now))));
            }
        });
        return list;
    }

    /** @return whether the key has neither holder nor waiting writer, so that the store can drop it */
    boolean isEmpty() {
        return holders.isEmpty() && writersWaiting.isEmpty();
    }

    private void expire(long now) {
        holders.values().removeIf(h -> h.expiresAt - now <= 0);
        writersWaiting.values().removeIf(end -> end - now <= 0);
    }
}
