package io.locksmith.memory;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Faults;
import io.locksmith.tck.TckSubject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** The memory backend as the kit sees it: clients of one shared group, with fault hooks. */
final class MemorySubject implements TckSubject {

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
        return Capabilities.builder().nativeWakeUp(true).build();
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
        };
    }
}
