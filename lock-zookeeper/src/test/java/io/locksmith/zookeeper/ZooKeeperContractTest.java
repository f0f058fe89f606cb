package io.locksmith.zookeeper;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.TestServers;

/** The whole compatibility kit against a real ZooKeeper server. */
class ZooKeeperContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new ZooKeeperSubject(TestServers.zookeeper());
    }
}
