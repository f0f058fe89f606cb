package io.locksmith.bench;

import io.locksmith.LockClient;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** The in-JVM backend; its floor is a ConcurrentHashMap put-if-absent and remove. */
final class MemoryBench implements BackendBench {

    /** The contended floor's map, shared by its connections as a server is. */
    private final ConcurrentHashMap<String, String> contendedMap = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public String version() {
        return "JVM " + Runtime.version();
    }

    @Override
    public LockClient client() {
        return LockClient.open("memory://bench");
    }

    @Override
    public String uri() {
        return "memory://bench";
    }

    @Override
    public Floor floor() {
        ConcurrentHashMap<String, String> map = new ConcurrentHashMap<>();
        return new Floor() {
            @Override
            public void pair(String key) {
                map.putIfAbsent(key, "owner");
                map.remove(key, "owner");
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public FloorConnection floorConnection() {
        String owner = UUID.randomUUID().toString();
        return new FloorConnection() {
            @Override
            public boolean tryAcquire(String key) {
                return contendedMap.putIfAbsent(key, owner) == null;
            }

            @Override
            public void release(String key) {
                contendedMap.remove(key, owner);
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public Runnable roundTrip() {
        return null;
    }

    @Override
    public void close() {}
}
