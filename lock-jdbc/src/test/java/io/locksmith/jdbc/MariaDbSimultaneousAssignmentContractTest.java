package io.locksmith.jdbc;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;

/**
 * The whole compatibility kit against MariaDB with {@code sql_mode=SIMULTANEOUS_ASSIGNMENT} on
 * every session of the kit's clients: the statements must keep every rule under either order of
 * SET evaluation ({@link MariaDbSqlModeTest} holds the targeted cases).
 */
class MariaDbSimultaneousAssignmentContractTest extends LockContract {

    @Override
    protected TckSubject subject() {
        return new JdbcSubject(Database.MARIADB, MariaDbSqlModeTest.SIMULTANEOUS, "SIMULTANEOUS_ASSIGNMENT");
    }
}
