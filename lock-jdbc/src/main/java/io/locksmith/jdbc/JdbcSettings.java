package io.locksmith.jdbc;

import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Secret;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The JDBC backend's own options, from the URI's query or an options map, read with the
 * context's typed accessors, so that every error names the option and the redacted location.
 *
 * @param table the lock table, a plain identifier, optionally schema-qualified
 * @param createTable whether to create the table if it is absent
 * @param poolSize how many connections the client keeps open and reuses; 0 opens one per call
 *     (or borrows one from the DataSource per call)
 * @param timeout bounds every statement (JDBC query timeout), connecting and socket reads
 * @param listen whether PostgreSQL waiters listen for releases (LISTEN/NOTIFY)
 * @param mode how a lock is kept: a row in the lock table (the default), or a server advisory
 *     lock on a session the client keeps for the grant (PostgreSQL, MariaDB, MySQL)
 * @param user the database user, if not in the URL
 * @param password the database password, if not in the URL; revealed only to the driver
 */
record JdbcSettings(
        String table,
        boolean createTable,
        int poolSize,
        Duration timeout,
        boolean listen,
        Mode mode,
        Optional<String> user,
        Optional<Secret> password) {

    /** The option names, as {@link JdbcLockProvider#optionNames()} declares them. */
    static final Set<String> NAMES =
            Set.of("user", "password", "table", "create-table", "pool-size", "timeout", "listen", "mode");

    /** How a lock is kept on the server. */
    enum Mode {
        /** A row per lock in the lock table, with an owner and a lease by the database's clock. */
        ROW,
        /** A server advisory lock on a connection the client keeps for the grant ({@link SessionBackend}). */
        SESSION
    }

    static final String DEFAULT_TABLE = "locksmith_locks";
    static final int DEFAULT_POOL_SIZE = 4;
    static final int MAX_POOL_SIZE = 1000;
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private static final Pattern IDENTIFIER =
            Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    /**
     * @param context the backend's context, its options those of this backend
     * @param defaultPoolSize the pool size when none is given (0 for a DataSource, which pools itself)
     * @throws LockConfigurationException for an unknown or invalid option
     */
    static JdbcSettings of(BackendContext context, int defaultPoolSize) {
        for (String name : context.options().keySet()) {
            if (!NAMES.contains(name)) {
                throw new LockConfigurationException("unknown option '" + name + "' for the jdbc lock provider ("
                        + context.redactedLocation() + "); known options: " + String.join(", ", new TreeSet<>(NAMES)));
            }
        }
        String table = context.option("table").orElse(DEFAULT_TABLE).trim();
        if (!IDENTIFIER.matcher(table).matches()) {
            throw context.invalid(
                    "table", table, "a plain table name such as locksmith_locks or app.locks (letters, digits, _)");
        }
        int pool = context.intOption("pool-size", defaultPoolSize, 0);
        if (pool > MAX_POOL_SIZE) {
            throw context.invalid(
                    "pool-size",
                    context.option("pool-size").orElseThrow(),
                    "a whole number from 0 to " + MAX_POOL_SIZE);
        }
        String mode = context.option("mode").orElse("row").trim().toLowerCase(java.util.Locale.ROOT);
        if (!mode.equals("row") && !mode.equals("session")) {
            throw context.invalid("mode", context.option("mode").orElseThrow(), "row or session");
        }
        return new JdbcSettings(
                table,
                context.booleanOption("create-table", true),
                pool,
                context.durationOption("timeout", DEFAULT_TIMEOUT),
                context.booleanOption("listen", true),
                mode.equals("session") ? Mode.SESSION : Mode.ROW,
                context.option("user"),
                context.secretOption("password"));
    }

    /** @return the timeout in whole seconds, at least 1, as JDBC's query timeout wants it */
    int timeoutSeconds() {
        return (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
    }

    @Override
    public String toString() {
        return "JdbcSettings[table=" + table + ", createTable=" + createTable + ", poolSize=" + poolSize
                + ", timeout=" + timeout + ", listen=" + listen + ", mode=" + mode + ", user=" + user.orElse("none")
                + ", password=" + password.map(Secret::toString).orElse("none") + "]";
    }
}
