package io.locksmith.internal;

import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.LossReason;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Durations;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The core's calls to its backend that are not part of an acquisition: the best-effort ones
 * (abandon an unanswered attempt, tell the backend a lease is lost) that log instead of throwing,
 * a single renewal with its answer checked, and the backend's lease bounds.
 */
final class BackendCalls {

    private static final Logger log = LoggerFactory.getLogger(BackendCalls.class);

    private final LockBackend backend;
    private final Workers workers;

    BackendCalls(LockBackend backend, Workers workers) {
        this.backend = backend;
        this.workers = workers;
    }

    String description() {
        return backend.description();
    }

    /** Gives up an attempt whose outcome is unknown, so a grant it made does not sit for a lease. */
    void abandon(AcquireRequest request) {
        try {
            backend.abandon(request);
        } catch (RuntimeException e) {
            log.warn(
                    "could not give up an unanswered attempt on lock '{}' on {}; if it was granted, it frees"
                            + " itself when its lease runs out: {}",
                    request.name(),
                    backend.description(),
                    e.toString());
        }
    }

    /** Tells the backend, on a worker, that the core no longer counts a lease as held. */
    void lost(HeldLease lease, LossReason reason) {
        workers.run(() -> {
            try {
                backend.lost(lease, reason);
            } catch (RuntimeException e) {
                log.warn(
                        "{} could not end lock '{}' after it was lost ({}); it ends with its lease or session: {}",
                        backend.description(),
                        lease.name(),
                        reason,
                        e.toString());
            }
        });
    }

    /** @throws LockConfigurationException if the backend cannot keep a lease this long */
    void validateLease(Duration lease) {
        if (lease.compareTo(backend.minimumLease()) < 0 || lease.compareTo(backend.maximumLease()) > 0) {
            throw new LockConfigurationException("a lease of " + Durations.format(lease)
                    + " is outside what " + backend.description() + " can keep ("
                    + Durations.format(backend.minimumLease()) + " to " + Durations.format(backend.maximumLease())
                    + ")");
        }
    }

    /** Renews one lease (an extend, a queued grant's confirmation); a malformed answer is an error. */
    RenewOutcome renewOne(HeldLease lease) {
        List<RenewOutcome> outcomes = backend.renew(List.of(lease));
        RenewOutcome outcome = outcomes == null || outcomes.size() != 1 ? null : outcomes.get(0);
        if (outcome == null) {
            throw new LockBackendException(backend.description() + " answered a renewal of lock '" + lease.name()
                    + "' with " + (outcomes == null ? "nothing" : outcomes.size() + " outcomes"));
        }
        return outcome;
    }

    boolean renewsForAnyLease() {
        return backend.renewsForAnyLease();
    }

    void release(HeldLease lease) {
        backend.release(lease);
    }
}
