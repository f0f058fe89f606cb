package io.locksmith.jdbc;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;

/** The whole compatibility kit against MariaDB in session mode ({@code GET_LOCK}). */
class MariaDbSessionContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return JdbcSubject.sessionMode(Database.MARIADB);
    }
}
