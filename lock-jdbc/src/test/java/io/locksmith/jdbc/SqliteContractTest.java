package io.locksmith.jdbc;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;

/** The whole compatibility kit against SQLite (one file, many clients). */
class SqliteContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new JdbcSubject(Database.SQLITE);
    }
}
