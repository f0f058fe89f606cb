package io.locksmith.spring.boot.autoconfigure;

import io.locksmith.LockClient;
import io.locksmith.spring.LockActivity;
import java.time.Instant;
import java.util.List;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code locks} actuator endpoint: the locks this instance holds (name, fencing token, lease
 * left, held since) and the acquisitions waiting. Lock names are the application's; the backend is
 * described without credentials, and no option is shown.
 */
@Endpoint(id = "locks")
public class LocksEndpoint {

    private final LockClient client;
    private final LockActivity activity;

    /**
     * @param client the client whose backend is named
     * @param activity what this instance's locks are doing
     */
    public LocksEndpoint(LockClient client, LockActivity activity) {
        this.client = client;
        this.activity = activity;
    }

    /** @return this instance's held locks and waiters */
    @ReadOperation
    public Locks locks() {
        List<Held> held = activity.held().stream()
                .map(h -> new Held(
                        h.name(),
                        h.fencingToken(),
                        h.heldSince(),
                        h.leaseLeft() == null ? null : h.leaseLeft().toMillis()))
                .toList();
        List<Waiting> waiting = activity.waiters().stream()
                .map(w -> new Waiting(w.name(), w.since(), w.maxWait().toMillis()))
                .toList();
        return new Locks(client.backend(), held, waiting);
    }

    /**
     * The endpoint's answer.
     *
     * @param backend the backend's description, without credentials
     * @param held the locks held, by name
     * @param waiting the acquisitions waiting, oldest first
     */
    public record Locks(String backend, List<Held> held, List<Waiting> waiting) implements OperationResponseBody {}

    /**
     * A held lock.
     *
     * @param name the lock's name
     * @param fencingToken the grant's fencing token
     * @param heldSince when it was taken
     * @param leaseLeftMillis the lease left by this process's clock, or null where unknown (a lock
     *     not taken through {@code @Locked})
     */
    public record Held(String name, long fencingToken, Instant heldSince, Long leaseLeftMillis) {}

    /**
     * A waiting acquisition.
     *
     * @param name the lock's name
     * @param since when it began waiting
     * @param maxWaitMillis how long it may wait at most
     */
    public record Waiting(String name, Instant since, long maxWaitMillis) {}
}
