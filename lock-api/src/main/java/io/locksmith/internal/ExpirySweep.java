package io.locksmith.internal;

import io.locksmith.LossReason;

/**
 * Marks a client's held locks lost when their local deadline passes: one timer task, due at the
 * earliest deadline of any of them. The deadline counts from when the last confirmed acquisition or
 * renewal was sent, on the client's own clock, so a lock is given up on time even after a pause.
 */
final class ExpirySweep {

    private final HeldTable held;
    private final CoreClock clock;
    private final TimerSlot sweep;

    ExpirySweep(HeldTable held, CoreClock clock) {
        this.held = held;
        this.clock = clock;
        this.sweep = new TimerSlot(clock, this::expireOverdue);
    }

    /** Makes a sweep come by {@code deadline}. */
    void by(long deadline) {
        sweep.by(deadline);
    }

    void cancel() {
        sweep.cancel();
    }

    private void expireOverdue() {
        sweep.fired();
        long now = clock.nanoTime();
        boolean any = false;
        long next = 0;
        for (DefaultLockHandle h : held.handles()) {
            long d = h.deadlineNanos();
            if (d - now <= 0) {
                h.lose(LossReason.LEASE_EXPIRED);
            } else if (!any || d - next < 0) {
                next = d;
                any = true;
            }
        }
        if (any) {
            sweep.by(next);
        }
    }
}
