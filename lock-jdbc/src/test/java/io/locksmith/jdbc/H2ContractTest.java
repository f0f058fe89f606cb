package io.locksmith.jdbc;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;

/** The whole compatibility kit against H2 (in memory). */
class H2ContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new JdbcSubject(Database.H2);
    }
}
