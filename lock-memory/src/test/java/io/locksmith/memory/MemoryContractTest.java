package io.locksmith.memory;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;

/** The whole compatibility kit against the memory backend. */
class MemoryContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new MemorySubject();
    }
}
