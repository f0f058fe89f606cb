package io.locksmith.azure;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.TestServers;

/** The whole compatibility kit against Azurite, with 15 s leases (Azure's shortest). */
class AzureBlobContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new AzureBlobSubject(TestServers.azurite());
    }
}
