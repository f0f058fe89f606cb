package io.locksmith.redis;

import io.locksmith.LockOptions;
import io.locksmith.LossReason;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.BackendConfig;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.Grant;
import io.locksmith.spi.HeldLease;
import java.time.Duration;
import java.util.Map;

/** A backend opened without a lock client, for tests that call the primitives themselves. */
final class RedisTestBackends {

    private static final BackendEvents IGNORED = new BackendEvents() {
        @Override
        public void lost(String key, String owner, LossReason reason) {}

        @Override
        public void allLost(LossReason reason) {}
    };

    private RedisTestBackends() {}

    static RedisBackend open(String uri, Map<String, String> options) {
        return (RedisBackend) new RedisLockProvider().open(new BackendConfig(uri.substring(0, uri.indexOf(':')), uri, options,
                LockOptions.defaults(), IGNORED));
    }

    /** A request for {@code key} (also its name) with a 30 s lease. */
    static AcquireRequest request(String key, String owner) {
        return new AcquireRequest(key, key, owner, Duration.ofSeconds(30));
    }

    /** @return the token of a grant the key must give at once */
    static long grant(RedisBackend backend, AcquireRequest request) {
        if (!(backend.tryAcquire(request) instanceof Grant grant)) {
            throw new AssertionError("[redis] test set-up: lock '" + request.name() + "' should have been free");
        }
        return grant.token();
    }

    static HeldLease lease(AcquireRequest request, long token) {
        return new HeldLease(request.key(), request.name(), request.owner(), token, request.lease(), null);
    }
}
