package io.locksmith.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LockStatus;
import io.locksmith.testing.RefusingPort;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What the kit cannot see: URLs and options, the row layout, restarts, and the errors users meet. */
class JdbcBackendTest {

    private static String option(String url, String option) {
        return url + (url.contains("?") ? "&" : "?") + option;
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aUrlOpensTheBackendAndTheRowStaysAfterReleaseSoTokensKeepCounting(Database db) throws SQLException {
        String url = option(db.url(), "table=url_locks&lease=20s");
        try (LockClient locks = LockClient.open(url)) {
            LockHandle first = locks.lock("layout").acquire(Duration.ZERO);
            List<Object> held = row("layout", db);
            assertThat(held.get(0)).isEqualTo("layout");
            assertThat(held.get(1)).as("the holder's owner id").isNotNull();
            assertThat(held.get(2)).isEqualTo(first.fencingToken());
            first.close();
            assertThat(row("layout", db)).containsExactly("layout", null, first.fencingToken());
            try (LockHandle second = locks.lock("layout").acquire(Duration.ZERO)) {
                assertThat(second.fencingToken()).isEqualTo(first.fencingToken() + 1);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void statusReadsTheHolderItsTokenAndItsRemainingLeaseFromTheRow(Database db) {
        String url = option(db.url(), "table=status_locks&lease=20s");
        try (LockClient holder = LockClient.open(url);
                LockClient operator = LockClient.open(url)) {
            assertThat(operator.lock("status").status().state())
                    .as(db + ": a name never taken is free")
                    .isEqualTo(LockStatus.State.FREE);
            try (LockHandle held = holder.lock("status").acquire(Duration.ZERO)) {
                LockStatus status = operator.lock("status").status();
                assertThat(status.state())
                        .as(db + ": a held lock's status, read by another client")
                        .isEqualTo(LockStatus.State.HELD);
                assertThat(status.fencingToken())
                        .as(db + ": the holder's token")
                        .hasValue(held.fencingToken());
                assertThat(status.owner()).as(db + ": the holder's owner id").isPresent();
                // at most the 20 s granted, by a database clock read in whole milliseconds from the
                // host's wall clock (SQLite's), which a busy host may set back a millisecond between
                // the grant and this read
                assertThat(status.remainingLease())
                        .as(db + ": the holder's remaining lease, at most the 20 s granted")
                        .hasValueSatisfying(left -> assertThat(left)
                                .isPositive()
                                .isLessThanOrEqualTo(Duration.ofSeconds(20).plusMillis(5)));
            }
            assertThat(operator.lock("status").status().state())
                    .as(db + ": a released lock (its row kept) is free")
                    .isEqualTo(LockStatus.State.FREE);
            holder.lock("status")
                    .withLease(Duration.ofSeconds(1))
                    .withAutoRenew(false)
                    .acquire(Duration.ZERO);
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(
                            () -> assertThat(operator.lock("status").status().state())
                                    .as(
                                            db
                                                    + ": a lock whose lease ran out by the database's clock (owner still in its row) is free")
                                    .isEqualTo(LockStatus.State.FREE));
        }
    }

    private static List<Object> row(String key, Database db) throws SQLException {
        try (Connection c = db.admin();
                PreparedStatement s =
                        c.prepareStatement("SELECT lock_name, owner, token FROM url_locks WHERE lock_key = ?")) {
            s.setString(1, Keys.hash(key));
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).as("the row of " + key).isTrue();
                return java.util.Arrays.asList(rs.getString(1), rs.getString(2), rs.getLong(3));
            }
        }
    }

    @Test
    void aPostgresRestartWhileLocksAreHeldRenewsTheHoldersAgainAndGrantsNothingTwice() throws Exception {
        TestServer pg = TestServers.postgres();
        try (LockClient holder = LockClient.open(pg.uri() + "&lease=4s&timeout=1s");
                LockClient rival = LockClient.open(pg.uri() + "&lease=4s&timeout=1s")) {
            LockHandle a = holder.lock("restart-a").acquire(Duration.ZERO);
            LockHandle b = holder.lock("restart-b").acquire(Duration.ZERO);
            // the test server runs with synchronous_commit=off: make the grants durable first, as a
            // production server (synchronous_commit=on) does at every commit
            Database.POSTGRES.execute("CHECKPOINT");
            pg.restart();
            // two renewal ticks after the restart: each holder is either renewed again or lost
            await().pollDelay(Duration.ofMillis(3000))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> true);
            for (LockHandle h : List.of(a, b)) {
                Optional<LockHandle> stolen = rival.lock(h.name()).tryAcquire();
                if (h.isHeld()) {
                    assertThat(stolen)
                            .as(h.name() + " is still held, so no one else may get it")
                            .isEmpty();
                } else {
                    assertThat(stolen).as(h.name() + " was lost, so it is free").isPresent();
                    assertThat(stolen.get().fencingToken()).isGreaterThan(h.fencingToken());
                    stolen.get().close();
                }
            }
            assertThat(a.isHeld() || b.isHeld())
                    .as("a restart shorter than the lease keeps the holders")
                    .isTrue();
        }
    }

    @Test
    void postgresRenewsAllHeldLocksInOneStatementPerTick() {
        CuttableDataSource source =
                new CuttableDataSource(TestServers.postgres().uri(), new java.util.Properties());
        // a saturated machine can take seconds to renew 3,000 locks while more are being taken: a
        // 10 s lease keeps the test about statements per tick, not about the machine's speed
        LockOptions options =
                LockOptions.builder().lease(Duration.ofSeconds(10)).build();
        try (LockClient locks =
                JdbcLocks.open(source, options, java.util.Map.of("table", "tick_locks", "pool-size", "2"))) {
            List<LockHandle> held = new java.util.ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                held.add(locks.lock("tick-" + i).acquire(Duration.ZERO));
            }
            int before = source.statements.get();
            await().pollDelay(Duration.ofSeconds(10))
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> true);
            int statements = source.statements.get() - before;
            assertThat(held).allMatch(LockHandle::isHeld);
            // a tick every 3.3 s, the locks taken at different times in up to three groups: at most
            // about ten statements, where batches of 500 would be six a group, twelve already for two
            assertThat(statements)
                    .as("statements while 3,000 locks were renewed for 10 s")
                    .isBetween(2, 11);
            held.forEach(LockHandle::close);
        }
    }

    @Test
    void credentialsAreOptions() { // that they are never shown is the kit's credential rule, run on every database
        String url = "jdbc:h2:mem:credentials;DB_CLOSE_DELAY=-1?user=sa&password=s3cret-pw";
        try (LockClient locks = LockClient.open(url)) {
            assertThat(locks.backend()).contains("H2");
            locks.lock("x").acquire(Duration.ZERO).close();
        }
    }

    @Test
    void wrongCredentialsAreAConfigurationErrorWithoutThePassword() {
        String url = TestServers.mariadb().uri().replace("user=root", "user=root&password=wrong-s3cret");
        assertThatThrownBy(() -> LockClient.open(url))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("authentication");
    }

    @Test
    void aMissingDriverNamesTheArtifactToAdd() {
        assertThatThrownBy(() -> LockClient.open("jdbc:mysql://127.0.0.1:3306/app?user=app&password=pw-s3cret"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("com.mysql:mysql-connector-j")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pw-s3cret"));
        assertThatThrownBy(() -> LockClient.open("jdbc:oracle:thin:@db:1521/app?password=pw-s3cret"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("PostgreSQL, MySQL, MariaDB, H2 and SQLite")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pw-s3cret"));
    }

    @Test
    void aReadOnlyDatabaseIsAClearError() {
        String url = TestServers.postgres().uri() + "&options=-c%20default_transaction_read_only%3Don&table=ro_locks";
        assertThatThrownBy(() -> LockClient.open(url))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("read-only");
    }

    @ParameterizedTest
    @EnumSource(
            value = Database.class,
            names = {"POSTGRES", "H2"})
    void aTableOfTheWrongShapeNamesTheTableAndTheMissingColumn(Database db) {
        db.execute(
                "CREATE TABLE IF NOT EXISTS wrong_shape (lock_key CHAR(64) PRIMARY KEY, owner VARCHAR(255), token BIGINT)");
        assertThatThrownBy(() -> LockClient.open(option(db.url(), "table=wrong_shape")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'wrong_shape'")
                .hasMessageContaining("'lock_name'");
        assertThatThrownBy(() -> LockClient.open(option(db.url(), "table=never_made&create-table=false")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'never_made'")
                .hasMessageContaining("create-table=false");
    }

    @Test
    void anUnreachableServerFailsWithinTheTimeout() throws IOException {
        try (RefusingPort down = new RefusingPort()) { // refused at once, and no server started meanwhile can take it
            int port = down.port();
            String url = "jdbc:postgresql://127.0.0.1:" + port + "/app?user=app&password=pw-s3cret&timeout=2s";
            long start = System.nanoTime();
            assertThatThrownBy(() -> LockClient.open(url))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("127.0.0.1:" + port);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void anUnknownHostNamesTheHostAndTheDriversReason(String product) {
        String url = "jdbc:" + product + "://no-such-host.invalid:5999/app?user=app&password=pw-s3cret&timeout=2s";
        assertThatThrownBy(() -> LockClient.open(url))
                .isInstanceOf(LockBackendException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .as(product
                                + " at an unknown host: the message names the host and port and the driver's reason")
                        .contains("no-such-host.invalid:5999")
                        .contains("UnknownHostException")
                        .doesNotContain("pw-s3cret"));
    }

    @Test
    void badOptionsAreRejected() {
        String h2 = Database.H2.url();
        assertThatThrownBy(() -> LockClient.open(option(h2, "table=locks;drop")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'table'");
        assertThatThrownBy(() -> LockClient.open(option(h2, "pool-size=-1")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'pool-size'");
        assertThatThrownBy(() -> LockClient.open(option(h2, "timeout=soon")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'timeout'");
        assertThatThrownBy(() -> JdbcLocks.open(
                        new CuttableDataSource(h2, new java.util.Properties()),
                        LockOptions.defaults(),
                        java.util.Map.of("tabel", "x")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'tabel'");
    }

    @Test
    void anExistingDataSourceStaysOpen() throws SQLException {
        CuttableDataSource ds =
                new CuttableDataSource("jdbc:h2:mem:existing;DB_CLOSE_DELAY=-1", new java.util.Properties());
        try (Connection mine = ds.getConnection()) {
            try (LockClient locks =
                    JdbcLocks.open(ds, LockOptions.defaults(), java.util.Map.of("table", "app_locks"))) {
                locks.lock("existing").acquire(Duration.ZERO).close();
            }
            assertThat(mine.isClosed()).isFalse();
            assertThat(mine.createStatement()
                            .executeQuery("SELECT COUNT(*) FROM app_locks")
                            .next())
                    .isTrue();
        }
    }
}
