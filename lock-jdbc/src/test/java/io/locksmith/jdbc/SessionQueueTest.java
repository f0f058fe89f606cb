package io.locksmith.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.LockTimeoutException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Session mode waits in the server's own lock queue: a waiting acquisition's session blocks in
 * {@code pg_advisory_lock} (PostgreSQL) or {@code GET_LOCK} with a timeout (MariaDB), so a release
 * hands the lock to the longest waiter on the server, before any later attempt, and a wait that
 * ends, or a client that closes, leaves the queue.
 */
class SessionQueueTest {

    /** A test that runs once on each database that has session mode: PostgreSQL and MariaDB. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest
    @EnumSource(
            value = Database.class,
            names = {"POSTGRES", "MARIADB"})
    @interface OnBothSessionDatabases {}

    private static final Duration LEASE = Duration.ofSeconds(5);
    private static final Duration SETTLE = Duration.ofSeconds(20);
    private final List<JdbcSubject> subjects = new ArrayList<>();

    private LockClient client(Database database) {
        return client(database, LEASE);
    }

    private LockClient client(Database database, Duration lease) {
        JdbcSubject s = JdbcSubject.sessionMode(database);
        subjects.add(s);
        return s.newClient(LockOptions.builder().lease(lease).build());
    }

    private static Set<Thread> waitThreads() {
        Set<Thread> found = new HashSet<>(Thread.getAllStackTraces().keySet());
        found.removeIf(t -> !t.getName().startsWith("locksmith-session-wait-"));
        return found;
    }

    @AfterEach
    void close() {
        subjects.forEach(JdbcSubject::close);
    }

    @OnBothSessionDatabases
    void aReleaseGoesToTheWaiterInTheServersQueueBeforeTheReleasersNextAttempt(Database database) throws Exception {
        try (LockClient holder = client(database);
                LockClient waiter = client(database)) {
            LockHandle held = holder.lock("queue-handoff").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> waiting = waiter.lock("queue-handoff").acquireAsync(SETTLE);
            await().atMost(SETTLE)
                    .untilAsserted(() -> assertThat(SessionFaults.waiters(database, "queue-handoff"))
                            .as("session mode: a waiting acquisition must wait in the server's lock queue")
                            .hasSize(1));
            held.close();
            Optional<LockHandle> again = holder.lock("queue-handoff").tryAcquire();
            assertThat(again)
                    .as("session mode: a release must grant the waiter in the server's queue, not the releaser's"
                            + " next attempt")
                    .isEmpty();
            LockHandle next = waiting.get(SETTLE.toSeconds(), TimeUnit.SECONDS);
            assertThat(next.isHeld()).isTrue();
            assertThat(next.fencingToken())
                    .as("session mode: a queued grant must carry a greater token")
                    .isGreaterThan(held.fencingToken());
            next.close();
        }
    }

    @OnBothSessionDatabases
    void waitersAreGrantedInTheOrderTheyQueued(Database database) throws Exception {
        try (LockClient holder = client(database)) {
            LockHandle held = holder.lock("queue-order").acquire(Duration.ZERO);
            List<CompletableFuture<LockHandle>> waiting = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                waiting.add(client(database).lock("queue-order").acquireAsync(SETTLE));
                int queued = i + 1;
                await().atMost(SETTLE)
                        .until(() ->
                                SessionFaults.waiters(database, "queue-order").size() == queued);
            }
            held.close();
            for (int i = 0; i < 3; i++) {
                LockHandle next = waiting.get(i).get(SETTLE.toSeconds(), TimeUnit.SECONDS);
                for (int later = i + 1; later < 3; later++) {
                    assertThat(waiting.get(later))
                            .as("session mode: waiter %d was granted before waiter %d, which queued first", later, i)
                            .isNotDone();
                }
                next.close();
            }
        }
    }

    @OnBothSessionDatabases
    void aWaitingAcquisitionOfAFreeLockIsGrantedOnTheCallersThread(Database database) {
        try (LockClient client = client(database)) {
            Set<Thread> before = waitThreads();
            try (LockHandle handle = client.lock("queue-free").acquire(SETTLE)) {
                assertThat(handle.isHeld()).isTrue();
                Set<Thread> started = waitThreads();
                started.removeAll(before);
                assertThat(started)
                        .as("session mode: a waiting acquisition that finds the lock free must take it on the"
                                + " caller's thread, without a wait thread")
                        .isEmpty();
            }
        }
    }

    @Test
    void aGrantSoonAfterTheWaitStatementWasSentTakesNoFurtherRoundTrip() throws Exception {
        Duration lease = Duration.ofSeconds(60); // the first renewal is 20 s away, well after the check below
        try (LockClient holder = client(Database.POSTGRES, lease);
                LockClient waiter = client(Database.POSTGRES, lease)) {
            LockHandle held = holder.lock("queue-one-trip").acquire(Duration.ZERO);
            CompletableFuture<LockHandle> waiting =
                    waiter.lock("queue-one-trip").acquireAsync(SETTLE);
            List<Long> queued = new ArrayList<>();
            await().atMost(SETTLE).until(() -> {
                queued.clear();
                queued.addAll(SessionFaults.waiters(Database.POSTGRES, "queue-one-trip"));
                return queued.size() == 1;
            });
            held.close();
            try (LockHandle next = waiting.get(SETTLE.toSeconds(), TimeUnit.SECONDS)) {
                assertThat(SessionFaults.lastStatement(queued.get(0)))
                        .as("session mode: a grant that arrives well within the lease of the wait statement's send"
                                + " must count its lease from that send, without a confirming round trip")
                        .contains("pg_advisory_lock(");
            }
        }
    }

    @OnBothSessionDatabases
    void aWaitThatEndsLeavesTheServersQueue(Database database) {
        try (LockClient holder = client(database);
                LockClient waiter = client(database);
                LockClient third = client(database)) {
            LockHandle held = holder.lock("queue-timeout").acquire(Duration.ZERO);
            assertThatThrownBy(() -> waiter.lock("queue-timeout").acquire(Duration.ofMillis(500)))
                    .as("session mode: a wait that runs out while the lock is held must time out")
                    .isInstanceOf(LockTimeoutException.class);
            await().atMost(SETTLE)
                    .untilAsserted(() -> assertThat(SessionFaults.waiters(database, "queue-timeout"))
                            .as("session mode: a wait that ended must leave the server's queue")
                            .isEmpty());
            held.close();
            try (LockHandle taken = third.lock("queue-timeout").acquire(SETTLE)) {
                assertThat(taken.isHeld())
                        .as("session mode: after a wait left the queue the lock must go to the next waiter")
                        .isTrue();
            }
        }
    }

    @OnBothSessionDatabases
    void closingAClientWhileItWaitsLeavesTheServersQueue(Database database) throws Exception {
        try (LockClient holder = client(database)) {
            LockHandle held = holder.lock("queue-close").acquire(Duration.ZERO);
            LockClient waiter = client(database);
            CompletableFuture<LockHandle> waiting = waiter.lock("queue-close").acquireAsync(SETTLE);
            await().atMost(SETTLE)
                    .until(() -> SessionFaults.waiters(database, "queue-close").size() == 1);
            waiter.close();
            assertThatThrownBy(() -> waiting.get(SETTLE.toSeconds(), TimeUnit.SECONDS))
                    .as("session mode: a wait whose client closed must fail")
                    .isInstanceOf(ExecutionException.class);
            await().atMost(SETTLE)
                    .untilAsserted(() -> assertThat(SessionFaults.waiters(database, "queue-close"))
                            .as("session mode: a closed client's wait must leave the server's queue")
                            .isEmpty());
            held.close();
        }
    }
}
