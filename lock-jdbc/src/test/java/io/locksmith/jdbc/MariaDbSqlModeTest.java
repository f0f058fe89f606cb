package io.locksmith.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * MariaDB under {@code sql_mode=SIMULTANEOUS_ASSIGNMENT} (MariaDB 10.3+), a server-wide setting
 * a DBA may choose: every expression of an UPDATE's SET list then sees the row as it was, not as
 * the assignments to its left left it. The statements must grant the same under either order.
 * The mode is set per session on every connection the clients open, so other tests sharing the
 * server are not affected.
 */
class MariaDbSqlModeTest {

    static final String SIMULTANEOUS = "SET SESSION sql_mode = CONCAT(@@sql_mode, ',SIMULTANEOUS_ASSIGNMENT')";

    private final String table = "mode_locks";

    private LockClient client(LockOptions options) {
        CuttableDataSource source = new CuttableDataSource(Database.MARIADB.url(), new Properties(), SIMULTANEOUS);
        assertThat(sqlMode(source))
                .as("the test's sessions run under the mode it is about")
                .contains("SIMULTANEOUS_ASSIGNMENT");
        return JdbcLocks.open(source, options, Map.of("table", table, "pool-size", "2"));
    }

    private static String sqlMode(CuttableDataSource source) {
        try (Connection c = source.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@SESSION.sql_mode")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("MariaDB: reading sql_mode: " + e.getMessage(), e);
        }
    }

    private static String name(String what) {
        return what + "-" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    }

    @Test
    void aReleasedLockIsTakenWithANewTokenAndAFullLease() {
        LockOptions options =
                LockOptions.builder().lease(Duration.ofSeconds(20)).build();
        try (LockClient a = client(options);
                LockClient b = client(options)) {
            String name = name("released");
            LockHandle first = a.lock(name).acquire(Duration.ZERO);
            first.close();
            try (LockHandle second = b.lock(name).acquire(Duration.ZERO)) {
                assertThat(second.fencingToken())
                        .as("MariaDB, SIMULTANEOUS_ASSIGNMENT, fencing: a grant after a release has a greater token")
                        .isGreaterThan(first.fencingToken());
                assertThat(a.lock(name).tryAcquire().map(h -> {
                            h.close();
                            return h.fencingToken();
                        }))
                        .as("MariaDB, SIMULTANEOUS_ASSIGNMENT, mutual exclusion: a held lock is not granted again")
                        .isEmpty();
            }
        }
    }

    @Test
    void anExpiredLockIsTakenWithANewTokenAndAFullLease() {
        LockOptions shortLease = LockOptions.builder()
                .lease(Duration.ofMillis(300))
                .autoRenew(false)
                .build();
        LockOptions longLease =
                LockOptions.builder().lease(Duration.ofSeconds(20)).build();
        try (LockClient a = client(shortLease);
                LockClient b = client(longLease)) {
            String name = name("expired");
            LockHandle first = a.lock(name).acquire(Duration.ZERO);
            // the first lease runs out by the database's clock; bounded generously for a busy machine
            LockHandle second = await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> b.lock(name).tryAcquire(), Optional::isPresent)
                    .orElseThrow();
            try (second) {
                assertThat(second.fencingToken())
                        .as("MariaDB, SIMULTANEOUS_ASSIGNMENT, fencing: a grant after an expiry has a greater token")
                        .isGreaterThan(first.fencingToken());
                Optional<LockHandle> third = a.lock(name).tryAcquire();
                third.ifPresent(LockHandle::close);
                assertThat(third)
                        .as(
                                "MariaDB, SIMULTANEOUS_ASSIGNMENT, mutual exclusion: a lock taken after an expiry holds for its new lease")
                        .isEmpty();
            }
            first.close();
        }
    }

    @Test
    void semaphoresAndReadWriteLocksGrantAsUnderTheDefaultMode() throws Exception {
        LockOptions options =
                LockOptions.builder().lease(Duration.ofSeconds(20)).build();
        try (LockClient a = client(options);
                LockClient b = client(options)) {
            String name = name("holds");
            LockHandle one = a.semaphore(name, 2).acquire(Duration.ZERO);
            LockHandle two = b.semaphore(name, 2).acquire(Duration.ZERO);
            assertThat(two.fencingToken())
                    .as("MariaDB, SIMULTANEOUS_ASSIGNMENT, semaphore: a second permit has a greater token")
                    .isGreaterThan(one.fencingToken());
            assertThat(a.semaphore(name, 2).tryAcquire())
                    .as("MariaDB, SIMULTANEOUS_ASSIGNMENT, semaphore: no third permit of two")
                    .isEmpty();
            one.close();
            two.close();
            LockHandle read = a.readWriteLock(name).readLock().acquire(Duration.ZERO);
            // the writer's first attempt leaves its mark; the grant turns the mark into the write row
            java.util.concurrent.CompletableFuture<LockHandle> writer =
                    b.readWriteLock(name).writeLock().acquireAsync(Duration.ofSeconds(20));
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> a.readWriteLock(name).readLock().tryAcquire(), h -> {
                        h.ifPresent(LockHandle::close);
                        return h.isEmpty();
                    });
            read.close();
            try (LockHandle write = writer.get(20, java.util.concurrent.TimeUnit.SECONDS)) {
                assertThat(write.fencingToken())
                        .as("MariaDB, SIMULTANEOUS_ASSIGNMENT, read-write: the writer's token is above the reader's")
                        .isGreaterThan(read.fencingToken());
                assertThat(a.readWriteLock(name).readLock().tryAcquire())
                        .as("MariaDB, SIMULTANEOUS_ASSIGNMENT, read-write: no reader while the writer holds")
                        .isEmpty();
            }
        }
    }
}
