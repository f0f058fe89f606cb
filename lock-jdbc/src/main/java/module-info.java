/** Locksmith's JDBC backend: {@code jdbc:postgresql:}, {@code jdbc:mariadb:}, {@code jdbc:mysql:}, {@code jdbc:h2:}, {@code jdbc:sqlite:}. */
module io.locksmith.jdbc {
    requires io.locksmith.api;
    requires java.sql;
    requires org.slf4j;

    exports io.locksmith.jdbc;

    provides io.locksmith.spi.LockProvider with
            io.locksmith.jdbc.JdbcLockProvider;
}
