package io.locksmith.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockException;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the kit cannot see of session mode: which server lock a name gets, re-entrancy within one
 * client, a holder's session ended from outside, and an attempt abandoned with its reply outstanding.
 */
class SessionModeTest {

    private static final Duration LEASE = Duration.ofSeconds(2);
    private final List<JdbcSubject> subjects = new ArrayList<>();

    private JdbcSubject subject(Database database) {
        JdbcSubject s = JdbcSubject.sessionMode(database);
        subjects.add(s);
        return s;
    }

    private static LockOptions options() {
        return LockOptions.builder().lease(LEASE).build();
    }

    @AfterEach
    void close() {
        subjects.forEach(JdbcSubject::close);
    }

    @ParameterizedTest
    @EnumSource(
            value = Database.class,
            names = {"POSTGRES", "MARIADB"})
    void namesWithDistinctIdsNeverShareALock(Database database) throws SQLException {
        JdbcSubject s = subject(database);
        try (LockClient one = s.newClient(options());
                LockClient two = s.newClient(options());
                LockHandle a = one.lock("ids-a").acquire(Duration.ZERO)) {
            Optional<LockHandle> b = two.lock("ids-b").tryAcquire();
            assertThat(b)
                    .as("[%s] session mode: a name other than the held one must be free", database)
                    .isPresent();
            long idA = id(database, "ids-a");
            long idB = id(database, "ids-b");
            assertThat(idA)
                    .as("[%s] session mode: two names must get two ids", database)
                    .isNotEqualTo(idB);
            assertThat(SessionFaults.holders(database, "ids-a"))
                    .as("[%s] session mode: each name's lock has its own holder session", database)
                    .hasSize(1)
                    .doesNotContainAnyElementsOf(SessionFaults.holders(database, "ids-b"));
            b.get().close();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Database.class,
            names = {"POSTGRES", "MARIADB"})
    void aSecondOwnerInTheSameClientIsRefusedWhileTheFirstHolds(Database database) {
        try (LockClient client = subject(database).newClient(options())) {
            // other names held first, so that the client's sessions already hold locks
            List<LockHandle> others = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                others.add(client.lock("reentry-other-" + i).acquire(Duration.ZERO));
            }
            try (LockHandle first = client.lock("reentry").acquire(Duration.ZERO)) {
                for (int i = 0; i < 5; i++) {
                    assertThat(client.lock("reentry").tryAcquire())
                            .as(
                                    "[%s] session mode: a second owner in the holder's own client must be refused"
                                            + " (server session locks are re-entrant)",
                                    database)
                            .isEmpty();
                }
                assertThat(first.isHeld())
                        .as("[%s] session mode: the first owner must still hold", database)
                        .isTrue();
            }
            Optional<LockHandle> after = client.lock("reentry").tryAcquire();
            assertThat(after)
                    .as("[%s] session mode: once released, the lock must be takeable", database)
                    .isPresent();
            after.get().close();
            others.forEach(LockHandle::close);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Database.class,
            names = {"POSTGRES", "MARIADB"})
    void aKilledSessionIsReportedLostAndFreesTheLock(Database database) {
        JdbcSubject s = subject(database);
        try (LockClient holder = s.newClient(options());
                LockClient rival = s.newClient(options())) {
            LockHandle held = holder.lock("killed").acquire(Duration.ZERO);
            AtomicInteger lost = new AtomicInteger();
            held.onLost(lost::incrementAndGet);
            assertThat(SessionFaults.holders(database, "killed"))
                    .as("[%s] session mode: the holder's session must hold the lock", database)
                    .hasSize(1);
            SessionFaults.endHolder(database, "killed");
            Optional<LockHandle> next = rival.lock("killed").tryAcquire();
            for (int i = 0; next.isEmpty() && i < 200; i++) {
                next = rival.lock("killed").tryAcquire(); // the server ends the session a moment after the kill
                if (next.isEmpty()) {
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                }
            }
            assertThat(next)
                    .as("[%s] session mode: a killed holder session must free the lock at once", database)
                    .isPresent();
            await().atMost(LEASE.multipliedBy(2))
                    .untilAsserted(() -> assertThat(lost.get())
                            .as("[%s] session mode: the holder of a killed session must be told once", database)
                            .isEqualTo(1));
            assertThat(held.isHeld())
                    .as("[%s] session mode: a killed session's handle must not be held", database)
                    .isFalse();
            assertThat(next.get().fencingToken())
                    .as("[%s] session mode: the next grant must carry a greater token", database)
                    .isGreaterThan(held.fencingToken());
            held.close();
            next.get().close();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Database.class,
            names = {"POSTGRES", "MARIADB"})
    void anAttemptGivenUpWithItsReplyOutstandingLeavesTheLockTakeable(Database database) throws InterruptedException {
        JdbcSubject s = subject(database);
        try (LockClient waiter = s.newClient(options());
                LockClient other = s.newClient(options())) {
            waiter.lock("phantom")
                    .acquire(Duration.ZERO)
                    .close(); // the name's id is known: one attempt is one statement
            s.faults().delayReplies(waiter, Duration.ofSeconds(1));
            try {
                CompletableFuture<LockHandle> waiting = waiter.lock("phantom").acquireAsync(Duration.ofMillis(100));
                assertThatThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
                        .as("[%s] session mode: a wait that ended before its reply must fail", database)
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(LockException.class);
                Optional<LockHandle> taken = Optional.empty();
                long until = System.nanoTime() + LEASE.toNanos() / 2;
                while (taken.isEmpty() && System.nanoTime() < until) {
                    taken = other.lock("phantom").tryAcquire();
                }
                assertThat(taken)
                        .as(
                                "[%s] session mode: the abandoned attempt's session must be ended, freeing the lock"
                                        + " well within a lease",
                                database)
                        .isPresent();
                taken.get().close();
            } finally {
                s.faults().delayReplies(waiter, Duration.ZERO);
            }
        }
    }

    @Test
    void sessionModeOnH2IsAConfigurationErrorNamingTheOption() {
        assertThatThrownBy(() -> LockClient.open("jdbc:h2:mem:session-mode;DB_CLOSE_DELAY=-1?mode=session"))
                .as("session mode on H2 must be refused, naming the option and the location")
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("option 'mode'")
                .hasMessageContaining("jdbc:h2:mem:session-mode")
                .hasMessageContaining("H2");
    }

    @Test
    void anUnknownModeIsAConfigurationErrorNamingTheOption() {
        assertThatThrownBy(() ->
                        LockClient.open("jdbc:postgresql://127.0.0.1:1/app?user=app&password=pw-s3cret&mode=sideways"))
                .as("an unknown mode must be refused before connecting, naming the option and the value")
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("option 'mode'")
                .hasMessageContaining("row or session")
                .hasMessageContaining("sideways")
                .hasMessageNotContaining("pw-s3cret");
    }

    private static long id(Database database, String key) throws SQLException {
        try (Connection c = database.admin();
                PreparedStatement s = c.prepareStatement("SELECT id FROM locksmith_locks_names WHERE lock_key = ?")) {
            s.setString(1, Keys.hash(key));
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next())
                        .as("[%s] session mode: the name %s must have an id", database, key)
                        .isTrue();
                return rs.getLong(1);
            }
        }
    }
}
