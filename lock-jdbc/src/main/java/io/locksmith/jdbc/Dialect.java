package io.locksmith.jdbc;

import io.locksmith.LockConfigurationException;
import java.util.Locale;
import java.util.Optional;

/**
 * The databases lock-jdbc speaks to, each with its SQL in a resource folder of its own. MySQL
 * shares MariaDB's statements (the syntax they use is common to both).
 */
enum Dialect {

    /** PostgreSQL 9.5 or newer: one upsert per attempt, RETURNING, LISTEN/NOTIFY. */
    POSTGRESQL("postgresql", "PostgreSQL", "org.postgresql:postgresql"),
    /** MariaDB 10.3 or newer: an upsert and a read-back per attempt. */
    MARIADB("mariadb", "MariaDB", "org.mariadb.jdbc:mariadb-java-client"),
    /** MySQL 5.7 or newer, with MariaDB's statements; tested against MariaDB only. */
    MYSQL("mariadb", "MySQL", "com.mysql:mysql-connector-j"),
    /** H2 2.x: a MERGE and a read-back per attempt. */
    H2("h2", "H2", "com.h2database:h2"),
    /** SQLite 3.35 or newer: one upsert with RETURNING per attempt; WAL for several clients per file. */
    SQLITE("sqlite", "SQLite", "org.xerial:sqlite-jdbc");

    /** For messages: what is supported. */
    static final String SUPPORTED = "PostgreSQL, MySQL, MariaDB, H2 and SQLite";

    private final String folder;
    private final String product;
    private final String driverArtifact;

    Dialect(String folder, String product, String driverArtifact) {
        this.folder = folder;
        this.product = product;
        this.driverArtifact = driverArtifact;
    }

    /** @return the resource folder of this dialect's SQL */
    String folder() {
        return folder;
    }

    /** @return the database's name for messages */
    String product() {
        return product;
    }

    /** @return the Maven coordinates of the usual driver, for a missing-driver message */
    String driverArtifact() {
        return driverArtifact;
    }

    /** @return whether an attempt is an upsert followed by a read-back (no RETURNING on upserts) */
    boolean readsBack() {
        return this == MARIADB || this == MYSQL || this == H2;
    }

    /** @return whether releases can wake waiters natively */
    boolean notifies() {
        return this == POSTGRESQL;
    }

    /**
     * @param url a JDBC URL
     * @return the dialect the URL's subprotocol names, if it names one of ours
     */
    static Optional<Dialect> fromUrl(String url) {
        String u = url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:postgresql:")) {
            return Optional.of(POSTGRESQL);
        } else if (u.startsWith("jdbc:mariadb:")) {
            return Optional.of(MARIADB);
        } else if (u.startsWith("jdbc:mysql:")) {
            return Optional.of(MYSQL);
        } else if (u.startsWith("jdbc:h2:")) {
            return Optional.of(H2);
        } else if (u.startsWith("jdbc:sqlite:")) {
            return Optional.of(SQLITE);
        }
        return Optional.empty();
    }

    /**
     * @param productName {@code DatabaseMetaData.getDatabaseProductName()}
     * @param where the redacted location, for the message
     * @return the dialect
     * @throws LockConfigurationException naming the supported databases, for any other
     */
    static Dialect fromProduct(String productName, String where) {
        String p = String.valueOf(productName).toLowerCase(Locale.ROOT);
        if (p.contains("postgres")) {
            return POSTGRESQL;
        } else if (p.contains("mariadb")) {
            return MARIADB;
        } else if (p.contains("mysql")) {
            return MYSQL;
        } else if (p.equals("h2")) {
            return H2;
        } else if (p.contains("sqlite")) {
            return SQLITE;
        }
        throw new LockConfigurationException(
                "unsupported database '" + productName + "' at " + where + ": lock-jdbc supports " + SUPPORTED);
    }
}
