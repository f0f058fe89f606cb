package io.locksmith.jdbc;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.Faults;
import io.locksmith.tck.SecretUri;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.RefusingPort;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One database as the kit sees it: every client has its own connections (through a DataSource
 * that the fault hooks can cut or slow) to the same lock table, as separate processes would.
 */
final class JdbcSubject implements TckSubject {

    private final Database database;
    private final String sessionSetup;
    private final String variant;
    private final boolean session;
    private final Map<LockClient, CuttableDataSource> sources = new ConcurrentHashMap<>();
    private static final String SECRET = "kit-jdbc-s3cret";
    private final RefusingPort refusing = new RefusingPort(); // the credential rule's address where nothing answers

    JdbcSubject(Database database) {
        // the test server runs with synchronous_commit=off, which a restart (SIGKILL) can undo the
        // last commits of; the kit's clients commit as a production server does, durably
        this(database, durableCommits(database), null);
    }

    /**
     * @param sessionSetup a statement run on every connection the clients open (a server setting a
     *     DBA may choose, made per session), or {@code null}
     * @param variant what the setup changes, for the subject's name, or {@code null}
     */
    JdbcSubject(Database database, String sessionSetup, String variant) {
        this(database, sessionSetup, variant, false);
    }

    private JdbcSubject(Database database, String sessionSetup, String variant, boolean session) {
        this.database = database;
        this.sessionSetup = sessionSetup;
        this.variant = variant;
        this.session = session;
    }

    /** The database's clients in session mode ({@code mode=session}): server advisory locks. */
    static JdbcSubject sessionMode(Database database) {
        return new JdbcSubject(database, durableCommits(database), "session mode", true);
    }

    private static String durableCommits(Database database) {
        return database == Database.POSTGRES ? "SET synchronous_commit = on" : null;
    }

    @Override
    public String name() {
        return "jdbc-" + database.name().toLowerCase(java.util.Locale.ROOT)
                + (variant == null ? "" : " (" + variant + ")");
    }

    @Override
    public LockClient newClient(LockOptions options) {
        CuttableDataSource source =
                new CuttableDataSource(database.url(), database.properties(), sessionSetup, session);
        LockClient client = JdbcLocks.open(
                source,
                options,
                session
                        ? Map.of("pool-size", "4", "timeout", "2s", "mode", "session")
                        : Map.of("pool-size", "4", "timeout", "2s"));
        sources.put(client, source);
        return client;
    }

    @Override
    public Capabilities capabilities() {
        // SQLite serialises writers on the file and its busy handler is not fair: under the kit's
        // contention an attempt can wait over a second, so rules about time get a longer lease there
        Duration lease = database == Database.SQLITE ? Duration.ofSeconds(3) : Duration.ofSeconds(1);
        // MariaDB's idle limit (wait_timeout) is in whole seconds
        Duration minimum = session && database == Database.MARIADB ? Duration.ofSeconds(1) : Duration.ofMillis(10);
        return Capabilities.builder()
                .minimumLease(minimum)
                .testLease(lease)
                .nativeWakeUp(database == Database.POSTGRES)
                .lacks(lacking())
                .build();
    }

    // Leases by the database's clock read no client clock, except SQLite's, which follow each
    // client process's own clock by design (docs/backends/jdbc.md): nothing the kit can skew there
    // without changing the process's clock. H2 and SQLite live inside the clients' processes:
    // there is no server to restart.
    private Fault[] lacking() {
        if (database == Database.SQLITE) { // and a file has no credentials
            return new Fault[] {Fault.SKEW_WALL_CLOCK, Fault.RESTART_SERVER, Fault.SECRET_URI};
        }
        return database == Database.H2
                ? new Fault[] {Fault.SKEW_WALL_CLOCK, Fault.RESTART_SERVER}
                : new Fault[] {Fault.SKEW_WALL_CLOCK};
    }

    /**
     * The clients' URL with a password: PostgreSQL's test server trusts every login, so it
     * accepts any password; MariaDB's root has none, so it refuses one; H2 makes a database of its
     * own with the password on first use. SQLite has no credentials at all.
     */
    @Override
    public Optional<SecretUri> secretUri() {
        String password = "password=" + SECRET + "&timeout=2s";
        String down = "127.0.0.1:" + refusing.port();
        return switch (database) {
            case POSTGRES ->
                Optional.of(new SecretUri(
                        database.url() + "&" + password,
                        SECRET,
                        "jdbc:postgresql://" + down + "/postgres?user=postgres&" + password));
            case MARIADB ->
                Optional.of(new SecretUri(
                        database.url() + "&" + password,
                        SECRET,
                        "jdbc:mariadb://" + down + "/test?user=root&" + password,
                        false));
            case H2 ->
                Optional.of(new SecretUri(
                        "jdbc:h2:mem:kit-secret;DB_CLOSE_DELAY=-1?user=sa&" + password,
                        SECRET,
                        "jdbc:h2:tcp://" + down + "/mem:kit-secret?user=sa&" + password));
            case SQLITE -> Optional.empty();
        };
    }

    @Override
    public Faults faults() {
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                if (session) {
                    // an operator ending the holder's session; the names row and the tokens stay
                    SessionFaults.endHolder(database, key);
                    return;
                }
                // an operator clearing the owner; the row and its token stay
                database.execute("UPDATE locksmith_locks SET owner = NULL WHERE lock_key = ?", Keys.hash(key));
                // and the key's permits, readers, writers and marks; the header rows and their tokens stay
                database.execute(
                        "DELETE FROM locksmith_locks_holds WHERE hold_key = ? AND owner <> ''", Keys.hash(key));
            }

            @Override
            public void cutConnection(LockClient client) {
                sources.get(client).cut(true);
            }

            @Override
            public void restoreConnection(LockClient client) {
                sources.get(client).cut(false);
            }

            /**
             * PostgreSQL and MariaDB restart with their data (the table, its rows and tokens).
             * H2 and SQLite have no server: the database lives in each client's process (an H2
             * in-memory database, a SQLite file every client opens), so there is nothing to
             * restart apart from the clients themselves, and the hook is not offered.
             */
            @Override
            public void restartServer() {
                switch (database) {
                    case POSTGRES -> TestServers.postgres().restart();
                    case MARIADB -> TestServers.mariadb().restart();
                    default -> Faults.super.restartServer();
                }
            }

            @Override
            public void delayReplies(LockClient client, Duration delay) {
                sources.get(client).delayReplies(delay);
            }
        };
    }

    @Override
    public void close() {
        refusing.close();
    }
}
