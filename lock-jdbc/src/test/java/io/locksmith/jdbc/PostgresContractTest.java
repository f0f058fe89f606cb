package io.locksmith.jdbc;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;

/** The whole compatibility kit against PostgreSQL. */
class PostgresContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new JdbcSubject(Database.POSTGRES);
    }
}
