package io.locksmith.redis;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.LossReason;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.Grant;
import io.locksmith.spi.HeldLease;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Backends for tests that call the primitives themselves. */
final class RedisTestBackends {

    /** Events nobody listens to, for a backend part built without a lock client. */
    static final BackendEvents IGNORED = new BackendEvents() {
        @Override
        public void lost(String key, String owner, LossReason reason) {}

        @Override
        public void allLost(LossReason reason) {}

        @Override
        public void released(String key) {}
    };

    private RedisTestBackends() {}

    /**
     * A lock client's backend, as the provider opened it; closing it closes the client.
     *
     * @param client the client that owns the backend
     * @param backend the backend, to call its primitives
     */
    record Opened(LockClient client, RedisBackend backend) implements AutoCloseable {
        @Override
        public void close() {
            client.close();
        }
    }

    /**
     * Opens a lock client on {@code uri} with the backend's own {@code options} and keeps its backend.
     *
     * @param uri a Redis URI
     * @param options the backend's options, such as {@code timeout}
     * @return the client and its backend
     */
    static Opened open(String uri, Map<String, String> options) {
        String query = new TreeMap<>(options)
                .entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("&"));
        RedisBackend[] opened = new RedisBackend[1];
        LockClient client = LockClient.open(
                query.isEmpty() ? uri : uri + (uri.contains("?") ? "&" : "?") + query,
                LockOptions.defaults(),
                backend -> {
                    opened[0] = (RedisBackend) backend;
                    return backend;
                });
        return new Opened(client, opened[0]);
    }

    /** A request for {@code key} (also its name) with a 30 s lease. */
    static AcquireRequest request(String key, String owner) {
        return AcquireRequest.of(key, key, owner, Duration.ofSeconds(30));
    }

    /** @return the token of a grant the key must give at once */
    static long grant(RedisBackend backend, AcquireRequest request) {
        if (!(backend.tryAcquire(request) instanceof Grant grant)) {
            throw new AssertionError("[redis] test set-up: lock '" + request.name() + "' should have been free");
        }
        return grant.token();
    }

    static HeldLease lease(AcquireRequest request, long token) {
        return HeldLease.of(request, Grant.of(token));
    }
}
