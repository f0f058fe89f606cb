package io.locksmith.jdbc;

import io.locksmith.LockConfigurationException;
import io.locksmith.LockOptions;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The JDBC backend's own options, from the URI's query or an options map.
 *
 * @param table the lock table, a plain identifier, optionally schema-qualified
 * @param createTable whether to create the table if it is absent
 * @param poolSize how many connections the client keeps open and reuses; 0 opens one per call
 *     (or borrows one from the DataSource per call)
 * @param timeout bounds every statement (JDBC query timeout), connecting and socket reads
 * @param listen whether PostgreSQL waiters listen for releases (LISTEN/NOTIFY)
 * @param user the database user, if not in the URL
 * @param password the database password, if not in the URL; never shown
 */
record JdbcSettings(String table, boolean createTable, int poolSize, Duration timeout, boolean listen,
        String user, String password) {

    /** The option names, as {@link JdbcLockProvider#optionNames()} declares them. */
    static final Set<String> NAMES = Set.of("user", "password", "table", "create-table", "pool-size", "timeout", "listen");

    static final String DEFAULT_TABLE = "locksmith_locks";
    static final int DEFAULT_POOL_SIZE = 4;
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    /**
     * @param options the options by name
     * @param defaultPoolSize the pool size when none is given (0 for a DataSource, which pools itself)
     * @param where the redacted location, for messages
     */
    static JdbcSettings of(Map<String, String> options, int defaultPoolSize, String where) {
        for (String name : options.keySet()) {
            if (!NAMES.contains(name)) {
                throw new LockConfigurationException("unknown option '" + name + "' for the jdbc lock provider ("
                        + where + "); known options: " + String.join(", ", new java.util.TreeSet<>(NAMES)));
            }
        }
        String table = options.getOrDefault("table", DEFAULT_TABLE).trim();
        if (!IDENTIFIER.matcher(table).matches()) {
            throw new LockConfigurationException("option 'table' of " + where + " must be a plain table name such as"
                    + " locksmith_locks or app.locks (letters, digits, _), was '" + table + "'");
        }
        boolean create = bool(options, "create-table", true, where);
        int pool = options.containsKey("pool-size") ? integer(options.get("pool-size"), where) : defaultPoolSize;
        Duration timeout = options.containsKey("timeout") ? duration(options.get("timeout"), where) : DEFAULT_TIMEOUT;
        boolean listen = bool(options, "listen", true, where);
        return new JdbcSettings(table, create, pool, timeout, listen, options.get("user"), options.get("password"));
    }

    /** @return the timeout in whole seconds, at least 1, as JDBC's query timeout wants it */
    int timeoutSeconds() {
        return (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
    }

    private static boolean bool(Map<String, String> options, String name, boolean dflt, String where) {
        String v = options.get(name);
        if (v == null) {
            return dflt;
        }
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new LockConfigurationException("option '" + name + "' of " + where + " must be true or false, was '" + v + "'");
    }

    private static int integer(String v, String where) {
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 0 && n <= 1000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new LockConfigurationException("option 'pool-size' of " + where
                + " must be a whole number from 0 to 1000, was '" + v + "'");
    }

    private static Duration duration(String v, String where) {
        try {
            // the same duration syntax as every other option
            return LockOptions.builder().set("lease", v).build().lease();
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException("option 'timeout' of " + where
                    + " must be a positive duration such as 500ms or 5s, was '" + v + "'");
        }
    }

    @Override
    public String toString() {
        return "JdbcSettings[table=" + table + ", createTable=" + createTable + ", poolSize=" + poolSize
                + ", timeout=" + timeout + ", listen=" + listen + ", user=" + user
                + ", password=" + (password == null ? "none" : "****") + "]";
    }
}
