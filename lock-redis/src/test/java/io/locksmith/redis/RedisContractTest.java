package io.locksmith.redis;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.TestServers;

/** The whole compatibility kit against a real redis-server. */
class RedisContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new RedisSubject(TestServers.redis());
    }
}
