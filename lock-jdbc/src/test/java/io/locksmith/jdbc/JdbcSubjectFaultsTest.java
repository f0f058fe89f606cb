package io.locksmith.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.tck.Faults;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The kit's fault hooks for the JDBC subject do what the kit's rules assume they do. */
class JdbcSubjectFaultsTest {

    private static final LockOptions OPTIONS =
            LockOptions.builder().lease(Duration.ofSeconds(20)).build();

    private static String name(String what) {
        return what + "-" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    }

    @ParameterizedTest
    @EnumSource(
            value = Database.class,
            names = {"POSTGRES", "MARIADB"})
    void aRestartKeepsHeldLocksAndTokens(Database db) {
        JdbcSubject subject = new JdbcSubject(db);
        try (LockClient holder = subject.newClient(OPTIONS);
                LockClient rival = subject.newClient(OPTIONS)) {
            String name = name("restart");
            LockHandle held = holder.lock(name).acquire(Duration.ZERO);
            subject.faults().restartServer();
            Optional<LockHandle> stolen = rival.lock(name).tryAcquire();
            stolen.ifPresent(LockHandle::close);
            assertThat(stolen)
                    .as(db + ", restart: a lock held before the restart is held after it")
                    .isEmpty();
            assertThat(held.isHeld())
                    .as(db + ", restart: the holder keeps its lock")
                    .isTrue();
            held.close();
            try (LockHandle next = rival.lock(name).acquire(Duration.ofSeconds(10))) {
                assertThat(next.fencingToken())
                        .as(db + ", restart: tokens keep increasing")
                        .isGreaterThan(held.fencingToken());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Database.class,
            names = {"H2", "SQLITE"})
    void embeddedDatabasesOfferNoRestart(Database db) {
        Faults faults = new JdbcSubject(db).faults();
        assertThatThrownBy(faults::restartServer).isInstanceOf(UnsupportedOperationException.class);
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void delayedRepliesReachTheDatabaseAtOnceAndTheClientLate(Database db) throws Exception {
        JdbcSubject subject = new JdbcSubject(db);
        try (LockClient slow = subject.newClient(OPTIONS)) {
            String name = name("delay");
            slow.lock(name).acquire(Duration.ZERO).close(); // the row exists; the delayed attempt updates it
            subject.faults().delayReplies(slow, Duration.ofSeconds(3));
            CompletableFuture<Optional<LockHandle>> attempt =
                    CompletableFuture.supplyAsync(() -> slow.lock(name).tryAcquire());
            // the grant is on the database while its answer is still held back
            await().atMost(Duration.ofSeconds(30)).until(() -> owner(db, name) != null || attempt.isDone());
            assertThat(attempt)
                    .as(db + ", delayReplies: the row is taken before the reply arrives")
                    .isNotDone();
            subject.faults().delayReplies(slow, Duration.ZERO);
            assertThat(attempt.get())
                    .as(db + ", delayReplies: the attempt ends with the grant")
                    .isPresent();
            attempt.get().get().close();
        }
    }

    private static String owner(Database db, String name) throws Exception {
        try (Connection c = db.admin();
                PreparedStatement s = c.prepareStatement("SELECT owner FROM locksmith_locks WHERE lock_key = ?")) {
            s.setString(1, Keys.hash(name));
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
