package io.locksmith.zookeeper;

import io.locksmith.spi.Hold;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Where a semaphore's or read-write lock's node stands in its key's queue, from one listing:
 *
 * <ul>
 *   <li>PERMIT(n): holds while fewer than n nodes are ahead of it. A node ahead that asked for
 *       another number of permits is a mismatch: every node ahead of a holder agreed with it when
 *       it was granted, and nodes only leave the queue, so holders always agree;
 *   <li>READ: holds while no writer is ahead of it;
 *   <li>WRITE: holds when nothing is ahead of it.
 * </ul>
 *
 * A node that waits is told what to watch, so that a change wakes as few waiters as can be
 * affected by it (no herd):
 *
 * <ul>
 *   <li>READ: the nearest writer ahead; WRITE: the node just ahead (as Curator's read-write lock);
 *   <li>PERMIT, the first waiter (exactly n ahead): every node ahead, since any one of them leaving
 *       lets it in; a later waiter: only the node just ahead, another waiter, whose grant (the data
 *       write that takes the token) or leaving is the only change that can move it up to first
 *       waiter. A release thus wakes the first waiter, and its grant wakes the next.
 * </ul>
 *
 * Nodes made by the same create as ours (a retrying client's first try) are not counted.
 *
 * @param state what the node may do
 * @param watch the names of the nodes to watch while it waits
 * @param untilGranted whether the one watched node's grant, not only its leaving, moves us (a later
 *     permit waiter): a watch set after that grant must look again at once
 * @param heldPermits for a mismatch, the permits the nodes ahead agreed on
 */
record Standing(State state, List<String> watch, boolean untilGranted, int heldPermits) {

    enum State {
        HOLDS,
        WAITS,
        MISMATCH
    }

    private static final Standing HOLDS = new Standing(State.HOLDS, List.of(), false, 0);

    static Standing of(SharedPaths.Entry mine, List<String> children) {
        List<SharedPaths.Entry> ahead = new ArrayList<>();
        for (String child : children) {
            SharedPaths.Entry e = SharedPaths.parse(child);
            if (e != null && e.sequence() < mine.sequence() && !e.protection().equals(mine.protection())) {
                ahead.add(e);
            }
        }
        ahead.sort(Comparator.comparingLong(SharedPaths.Entry::sequence));
        return switch (mine.kind()) {
            case PERMIT -> permit(mine.permits(), ahead);
            case READ -> read(ahead);
            case WRITE -> ahead.isEmpty() ? HOLDS : waits(List.of(last(ahead)), false);
            case EXCLUSIVE -> throw new IllegalArgumentException("a lock's node stands in LockQueue");
        };
    }

    private static Standing permit(int permits, List<SharedPaths.Entry> ahead) {
        for (SharedPaths.Entry e : ahead) {
            if (e.kind() == Hold.Kind.PERMIT && e.permits() != permits) {
                return new Standing(State.MISMATCH, List.of(), false, e.permits());
            }
        }
        if (ahead.size() < permits) {
            return HOLDS;
        }
        if (ahead.size() == permits) {
            return waits(ahead.stream().map(SharedPaths.Entry::name).toList(), false);
        }
        return waits(List.of(last(ahead)), true);
    }

    private static Standing read(List<SharedPaths.Entry> ahead) {
        for (int i = ahead.size() - 1; i >= 0; i--) {
            if (ahead.get(i).kind() == Hold.Kind.WRITE) {
                return waits(List.of(ahead.get(i).name()), false);
            }
        }
        return HOLDS;
    }

    private static String last(List<SharedPaths.Entry> ahead) {
        return ahead.get(ahead.size() - 1).name();
    }

    private static Standing waits(List<String> watch, boolean untilGranted) {
        return new Standing(State.WAITS, watch, untilGranted, 0);
    }
}
