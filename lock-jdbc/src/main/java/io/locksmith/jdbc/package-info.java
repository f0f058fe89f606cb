/**
 * The JDBC backend: locks as rows of one table in PostgreSQL, MySQL, MariaDB, H2 or SQLite. An
 * attempt is one upsert in autocommit that only takes a free or expired row (plus a read-back
 * where the upsert cannot return it); leases run on the database's clock; the row stays after
 * release so that fencing tokens keep increasing; PostgreSQL wakes waiters with LISTEN/NOTIFY.
 *
 * <p>Open it with {@code LockClient.open("jdbc:postgresql://db/app?user=app&password=...")}, or
 * around an existing {@link javax.sql.DataSource} with {@link io.locksmith.jdbc.JdbcLocks}.
 */
package io.locksmith.jdbc;
