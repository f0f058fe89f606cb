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

    private final String group = "tck-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    private final Map<LockClient, MemoryBackend> backends = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public LockClient newClient(LockOptions options) {
        MemoryBackend backend = new MemoryBackend(MemoryStore.group(group), "memory://" + group);
        LockClient client = LockClient.of(events -> backend, options);
        backends.put(client, backend);
        return client;
    }

    @Override
    public Capabilities capabilities() {
        // the store keeps leases on its own clock and reads no client's wall clock: nothing to skew
        return Capabilities.builder().nativeWakeUp(true).lacks(Fault.SKEW_WALL_CLOCK).build();
    }

    @Override
    public Faults faults() {
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                MemoryStore.group(group).remove(key);
            }

            @Override
            public void cutConnection(LockClient client) {
                backends.get(client).sever();
            }

            @Override
            public void restoreConnection(LockClient client) {
                backends.get(client).restore();
            }

            @Override
            public void restartServer() {
                MemoryStore.group(group).restart(RESTART_OUTAGE);
            }

            @Override
            public void delayReplies(LockClient client, Duration delay) {
                backends.get(client).delayReplies(delay);
            }
        };
    }
}
