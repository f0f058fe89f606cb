package io.locksmith.jdbc;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Secret;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Lock clients over a {@link DataSource} the application already has (a HikariCP pool, a
 * container's DataSource). The lock client borrows a connection for each statement and hands it
 * straight back; it never closes the DataSource. On PostgreSQL it keeps one more connection for
 * LISTEN while a waiter needs it.
 *
 * <pre>{@code
 * try (LockClient locks = JdbcLocks.open(dataSource, LockOptions.defaults())) {
 *     try (LockHandle held = locks.lock("nightly-report").acquire(Duration.ofSeconds(10))) { ... }
 * }
 * }</pre>
 */
public final class JdbcLocks {

    private static final String WHERE = "the given DataSource";

    private JdbcLocks() {}

    /**
     * Opens a client on the default table {@code locksmith_locks}, creating it if absent.
     *
     * @param dataSource where connections come from; must be of PostgreSQL, MySQL, MariaDB, H2 or SQLite
     * @param options the lock options
     * @return an open client
     * @throws io.locksmith.LockConfigurationException if the database is not supported, is
     *     read-only, or its lock table has the wrong shape
     * @throws io.locksmith.LockBackendException if the database cannot be reached
     */
    public static LockClient open(DataSource dataSource, LockOptions options) {
        return open(dataSource, options, Map.of());
    }

    /**
     * Opens a client with the backend's own options, as the URL form takes them: {@code table},
     * {@code create-table}, {@code timeout}, {@code listen}, {@code mode}, {@code pool-size} (default 0 here:
     * the DataSource pools; a positive size keeps that many of its connections borrowed and
     * reuses them) and {@code user}/{@code password} (for {@link DataSource#getConnection(String, String)}).
     *
     * @param dataSource where connections come from
     * @param options the lock options
     * @param settings the backend's options by name, e.g. {@code Map.of("table", "app_locks")}
     * @return an open client
     * @throws io.locksmith.LockConfigurationException for an unknown or invalid option, and as
     *     {@link #open(DataSource, LockOptions)}
     */
    public static LockClient open(DataSource dataSource, LockOptions options, Map<String, String> settings) {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(settings, "settings");
        Map<String, String> given = Map.copyOf(settings);
        return LockClient.of(
                context -> {
                    BackendContext withSettings = withOptions(context, WHERE, given);
                    JdbcSettings s = JdbcSettings.of(withSettings, 0);
                    ConnectionPool.Connector connector = s.user().isEmpty()
                            ? dataSource::getConnection
                            : () -> dataSource.getConnection(
                                    s.user().get(),
                                    s.password().map(Secret::reveal).orElse(null));
                    return JdbcBackends.open(connector, s, WHERE, context.events(), context.ticker());
                },
                options);
    }

    /**
     * The client's context, with a location for messages and the settings as its options, so that
     * they are read (and rejected) as the URL form's are.
     */
    private static BackendContext withOptions(BackendContext context, String where, Map<String, String> options) {
        return BackendContext.builder("jdbc", where)
                .options(options)
                .lockOptions(context.lockOptions())
                .events(context.events())
                .scheduler(context.scheduler())
                .ticker(context.ticker())
                .heldLeases(context.heldLeases())
                .build();
    }
}
