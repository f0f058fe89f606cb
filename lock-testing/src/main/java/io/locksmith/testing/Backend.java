package io.locksmith.testing;

/**
 * The servers {@link TestServers} can provide, each with the environment variable that points
 * tests at an external server instead and the package that provides a local one.
 */
public enum Backend {

    /** Redis, from the Debian package {@code redis-server}. */
    REDIS("redis", "LOCKSMITH_TEST_REDIS_URI", "the Debian package redis-server"),

    /** etcd v3, from the Debian package {@code etcd-server}. */
    ETCD("etcd", "LOCKSMITH_TEST_ETCD_URI", "the Debian package etcd-server"),

    /** Apache ZooKeeper, from the Debian package {@code zookeeper}. */
    ZOOKEEPER("zookeeper", "LOCKSMITH_TEST_ZOOKEEPER_URI", "the Debian package zookeeper"),

    /** PostgreSQL, from the Debian package {@code postgresql}. */
    POSTGRES("postgres", "LOCKSMITH_TEST_POSTGRES_URI", "the Debian package postgresql"),

    /** MariaDB, from the Debian package {@code mariadb-server}. */
    MARIADB("mariadb", "LOCKSMITH_TEST_MARIADB_URI", "the Debian package mariadb-server"),

    /** Azurite, the Azure Storage emulator (blob service), from {@code npm install -g azurite}. */
    AZURITE("azurite", "LOCKSMITH_TEST_AZURITE_URI", "the npm package azurite (npm install -g azurite)");

    private final String displayName;
    private final String environmentVariable;
    private final String installHint;

    Backend(String displayName, String environmentVariable, String installHint) {
        this.displayName = displayName;
        this.environmentVariable = environmentVariable;
        this.installHint = installHint;
    }

    /**
     * The short lower-case name used in logs and messages, for example {@code redis}.
     *
     * @return the name
     */
    public String displayName() {
        return displayName;
    }

    /**
     * The environment variable that, when set, makes tests use that external server.
     *
     * @return the variable's name, for example {@code LOCKSMITH_TEST_REDIS_URI}
     */
    public String environmentVariable() {
        return environmentVariable;
    }

    /**
     * What to install for a local server, for messages.
     *
     * @return for example {@code the Debian package redis-server}
     */
    public String installHint() {
        return installHint;
    }
}
