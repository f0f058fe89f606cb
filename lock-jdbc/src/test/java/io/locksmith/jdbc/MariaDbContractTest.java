package io.locksmith.jdbc;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;

/** The whole compatibility kit against MariaDB. */
class MariaDbContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new JdbcSubject(Database.MARIADB);
    }
}
