package io.locksmith.etcd;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.TestServers;

/** The whole compatibility kit against a real etcd. */
class EtcdContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new EtcdSubject(TestServers.etcd());
    }
}
