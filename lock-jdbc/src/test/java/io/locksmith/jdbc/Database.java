package io.locksmith.jdbc;

import io.locksmith.testing.TestServers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The four databases the tests run against, each as a JDBC URL: PostgreSQL and MariaDB from
 * lock-testing's real servers, H2 as a named in-memory database shared by every connection of the
 * JVM, SQLite as a file in a temporary directory, shared by every client.
 */
enum Database {
    POSTGRES(() -> TestServers.postgres().uri()),
    MARIADB(() -> TestServers.mariadb().uri()),
    H2(() -> "jdbc:h2:mem:locks-" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ";DB_CLOSE_DELAY=-1"),
    SQLITE(Database::sqliteFile);

    private final Supplier<String> url;
    private volatile String resolved;

    Database(Supplier<String> url) {
        this.url = url;
    }

    /** @return the URL, credentials in its query; the same for the whole run */
    synchronized String url() {
        if (resolved == null) {
            resolved = url.get();
        }
        return resolved;
    }

    /** @return driver properties a client needs beyond the URL */
    Properties properties() {
        Properties p = new Properties();
        if (this == SQLITE) {
            p.setProperty("busy_timeout", "5000");
        }
        return p;
    }

    /** @return a plain connection, for the tests' own look at the table */
    Connection admin() throws SQLException {
        return DriverManager.getConnection(url(), properties());
    }

    /** Runs one statement on a plain connection, as an operator would. */
    int execute(String sql, Object... parameters) {
        try (Connection c = admin();
                PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                s.setObject(i + 1, parameters[i]);
            }
            return s.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(name() + ": " + sql + ": " + e.getMessage(), e);
        }
    }

    private static String sqliteFile() {
        try {
            Path dir = Files.createTempDirectory("locksmith-sqlite");
            dir.toFile().deleteOnExit();
            return "jdbc:sqlite:" + dir.resolve("locks.db");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
