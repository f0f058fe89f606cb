package io.locksmith.jdbc;

import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * Opens {@code jdbc:} URLs: {@code jdbc:postgresql://host/db}, {@code jdbc:mariadb://host/db},
 * {@code jdbc:mysql://host/db}, {@code jdbc:h2:...}, {@code jdbc:sqlite:file}. The database's
 * driver must be on the class path; lock-jdbc brings none.
 *
 * <pre>{@code
 * try (LockClient locks = LockClient.open("jdbc:postgresql://db:5432/app?user=app&password=secret&lease=10s")) { ... }
 * }</pre>
 *
 * <p>Options (removed from the URL before the driver sees it): {@code user}, {@code password},
 * {@code table} (default {@code locksmith_locks}), {@code create-table} (default true),
 * {@code pool-size} (connections kept open, default 4; 0 opens one per call), {@code timeout}
 * (statements, connecting and socket reads; default 5s) and {@code listen} (PostgreSQL
 * LISTEN/NOTIFY wake-ups, default true; turn it off behind pgbouncer's transaction pooling) and
 * {@code mode} ({@code row}, the default: a row per lock in the lock table, through any pool; or
 * {@code session}: a server advisory lock on a session kept for each grant, PostgreSQL 14+,
 * MariaDB and MySQL only, over a direct connection, never a pooler in transaction mode; locks only).
 * Every other query parameter stays in the URL for the driver.
 */
public final class JdbcLockProvider implements LockProvider {

    /** Creates the provider; {@link java.util.ServiceLoader} does this. */
    public JdbcLockProvider() {}

    @Override
    public String name() {
        return "jdbc";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("jdbc");
    }

    @Override
    public Set<String> optionNames() {
        return JdbcSettings.NAMES;
    }

    /** @return true: a driver's own parameters ({@code sslmode}, {@code useSSL}) stay in its URL */
    @Override
    public boolean passesUnknownQueryParameters() {
        return true;
    }

    @Override
    public LockBackend open(BackendContext context) {
        // a JDBC URL is the driver's to parse: it goes to the driver as given
        String url = context.location();
        String where = context.redactedLocation();
        JdbcSettings settings = JdbcSettings.of(context, JdbcSettings.DEFAULT_POOL_SIZE);
        Driver driver = driver(url, where);
        Properties properties = properties(url, settings);
        return JdbcBackends.open(
                () -> {
                    java.sql.Connection c = driver.connect(url, properties);
                    if (c == null) {
                        throw new SQLException(
                                "the driver " + driver.getClass().getName() + " does not accept " + where, "08001");
                    }
                    return c;
                },
                settings,
                where,
                context.events(),
                context.ticker());
    }

    private static Driver driver(String url, String where) {
        try {
            return DriverManager.getDriver(url);
        } catch (SQLException e) {
            // never DriverManager's own message: it repeats the URL, credentials and all
            String advice = Dialect.fromUrl(url)
                    .map(d -> "add the " + d.product() + " driver " + d.driverArtifact() + " to the class path")
                    .orElse("add the database's JDBC driver to the class path; lock-jdbc supports "
                            + Dialect.SUPPORTED);
            throw new LockConfigurationException("no JDBC driver on the class path accepts " + where + ": " + advice);
        }
    }

    /** Credentials and timeouts for the driver; timeouts the URL sets itself are left alone. */
    static Properties properties(String url, JdbcSettings settings) {
        Properties p = new Properties();
        settings.user().ifPresent(user -> p.setProperty("user", user));
        settings.password().ifPresent(password -> p.setProperty("password", password.reveal()));
        long ms = settings.timeout().toMillis();
        long seconds = settings.timeoutSeconds();
        switch (Dialect.fromUrl(url).orElse(Dialect.H2)) {
            case POSTGRESQL -> {
                defaultTo(p, url, "connectTimeout", seconds);
                defaultTo(p, url, "loginTimeout", seconds);
                // past the query timeout, so that a statement is cancelled before its socket gives up
                defaultTo(p, url, "socketTimeout", seconds + 2);
            }
            case MARIADB, MYSQL -> {
                defaultTo(p, url, "connectTimeout", ms);
                defaultTo(p, url, "socketTimeout", ms + 2000);
            }
            case SQLITE -> defaultTo(p, url, "busy_timeout", ms);
            default -> {
                // H2 runs in the JVM or answers its own timeouts; nothing to bound
            }
        }
        return p;
    }

    private static void defaultTo(Properties p, String url, String name, long value) {
        if (!url.toLowerCase(Locale.ROOT).contains(name.toLowerCase(Locale.ROOT) + "=")) {
            p.setProperty(name, Long.toString(value));
        }
    }
}
