package io.locksmith.jdbc;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;

/** The whole compatibility kit against PostgreSQL in session mode (advisory locks). */
class PostgresSessionContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return JdbcSubject.sessionMode(Database.POSTGRES);
    }
}
