package io.locksmith.memory;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.Faults;
import io.locksmith.tck.TckSubject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** The memory backend as the kit sees it: clients of one shared group, with fault hooks. */
final class MemorySubject implements TckSubject {

    /** How long a restart keeps the store unreachable: several back-offs, well under the kit's lease. */
    private static final Duration RESTART_OUTAGE = Duration.ofMillis(200);

    private final String group =
            "tck-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    private final Map<LockClient, MemoryFaults.Connection> connections = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public LockClient newClient(LockOptions options) {
        MemoryFaults.Connection connection = MemoryFaults.connect(group, options);
        connections.put(connection.client(), connection);
        return connection.client();
    }

    @Override
    public Capabilities capabilities() {
        // the store keeps leases on its own clock and reads no client's wall clock: nothing to skew
        // memory: URIs carry no credential, so there is none to show
        return Capabilities.builder()
                .nativeWakeUp(true)
                .lacks(Fault.SKEW_WALL_CLOCK, Fault.SECRET_URI)
                .build();
    }

    @Override
    public Faults faults() {
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                MemoryFaults.removeLockState(group, key);
            }

            @Override
            public void cutConnection(LockClient client) {
                connections.get(client).cut();
            }

            @Override
            public void restoreConnection(LockClient client) {
                connections.get(client).restore();
            }

            @Override
            public void restartServer() {
                MemoryFaults.restart(group, RESTART_OUTAGE);
            }

            @Override
            public void delayReplies(LockClient client, Duration delay) {
                connections.get(client).delayReplies(delay);
            }
        };
    }
}
