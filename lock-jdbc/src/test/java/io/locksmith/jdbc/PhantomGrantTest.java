package io.locksmith.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockBackend;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An attempt whose answer was lost (a timeout, an interrupt, a dropped connection after the
 * statement committed) has taken the row for an owner no handle knows. The core retries with the
 * same request while the wait lasts, and abandons it when the caller gives up: a retry must be
 * granted its own row, and abandoning must free it at once, without touching another owner's.
 * The lost answer is played by simply ignoring the first attempt's result.
 */
class PhantomGrantTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private LockClient client;

    /** Opens a client from the database's URL, as any other, and hands back its backend to call directly. */
    private LockBackend backend(Database db) {
        String url = db.url() + (db.url().contains("?") ? "&" : "?") + "table=phantom_locks&pool-size=2";
        AtomicReference<LockBackend> opened = new AtomicReference<>();
        client = LockClient.open(url, LockOptions.defaults(), backend -> {
            opened.set(backend);
            return backend;
        });
        return opened.get();
    }

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    private static AcquireRequest request(String key, String owner) {
        return AcquireRequest.of(
                key,
                key,
                owner + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong()),
                LEASE);
    }

    private static String key(String what) {
        return what + "-" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aRetryOfAnAttemptWhoseAnswerWasLostIsGrantedItsOwnRowWithTheSameToken(Database db) {
        LockBackend backend = backend(db);
        String key = key("retry");
        AcquireRequest waiter = request(key, "waiter");
        AcquireResult lost = backend.tryAcquire(waiter);
        assertThat(lost).as(db + ": the first attempt takes the free lock").isInstanceOf(Grant.class);
        AcquireResult retry = backend.tryAcquire(waiter);
        assertThat(retry)
                .as(db + ", own grant: a retry of the same request is not refused by its own row")
                .isInstanceOf(Grant.class);
        assertThat(((Grant) retry).token())
                .as(db + ", own grant: the retry gets the token the lost answer carried, not a second increment")
                .isEqualTo(((Grant) lost).token());
        AcquireResult rival = backend.tryAcquire(request(key, "rival"));
        assertThat(rival)
                .as(db + ", mutual exclusion: the retried grant still holds the lock")
                .isInstanceOf(Held.class);
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void abandoningAnAttemptFreesItsRowAtOnceAndNeverAnotherOwners(Database db) {
        LockBackend backend = backend(db);
        String key = key("abandon");
        AcquireRequest gaveUp = request(key, "gave-up");
        Grant phantom = (Grant) backend.tryAcquire(gaveUp);
        backend.abandon(gaveUp);
        AcquireResult next = backend.tryAcquire(request(key, "next"));
        assertThat(next)
                .as(db + ", abandon: a lock taken by an attempt given up is takeable at once, not after its" + " lease")
                .isInstanceOf(Grant.class);
        assertThat(((Grant) next).token())
                .as(db + ", fencing: the next grant's token is greater")
                .isGreaterThan(phantom.token());
        backend.abandon(gaveUp);
        assertThat(backend.tryAcquire(request(key, "third")))
                .as(db + ", ownership: abandoning again does not free another owner's lock")
                .isInstanceOf(Held.class);
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aPermitOrAWriteRetriedIsGrantedItsOwnRowAndAbandoningItFreesIt(Database db) {
        LockBackend backend = backend(db);
        for (Hold hold : List.of(Hold.permitOf(1), Hold.WRITE)) {
            String key = key("holds");
            AcquireRequest waiter = request(key, "waiter").withHold(hold);
            Grant lost = (Grant) backend.tryAcquire(waiter);
            AcquireResult retry = backend.tryAcquire(waiter);
            assertThat(retry)
                    .as(db + ", " + hold + ", own grant: a retry of the same request is granted")
                    .isInstanceOf(Grant.class);
            assertThat(((Grant) retry).token())
                    .as(db + ", " + hold + ", own grant: the retry gets the token the lost answer carried")
                    .isEqualTo(lost.token());
            assertThat(backend.tryAcquire(request(key, "rival").withHold(hold)))
                    .as(db + ", " + hold + ": the retried grant still holds")
                    .isInstanceOf(Held.class);
            backend.abandon(waiter);
            AcquireResult next = backend.tryAcquire(request(key, "next").withHold(hold));
            assertThat(next)
                    .as(db + ", " + hold + ", abandon: takeable at once, not after the lease")
                    .isInstanceOf(Grant.class);
            assertThat(((Grant) next).token())
                    .as(db + ", " + hold + ", fencing: the next grant's token is greater")
                    .isGreaterThan(lost.token());
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aWaitingWritersMarkHoldsNewReadersBackUntilItIsAbandoned(Database db) {
        LockBackend backend = backend(db);
        String key = key("mark");
        AcquireRequest reader = request(key, "reader").withHold(Hold.READ);
        Grant read = (Grant) backend.tryAcquire(reader);
        AcquireRequest writer = request(key, "writer").withHold(Hold.WRITE);
        assertThat(backend.tryAcquire(writer))
                .as(db + ", read-write: a writer finds the key read")
                .isInstanceOf(Held.class);
        assertThat(backend.tryAcquire(request(key, "later").withHold(Hold.READ)))
                .as(db + ", read-write: the waiting writer's mark holds a later reader back")
                .isInstanceOf(Held.class);
        assertThat(backend.tryAcquire(reader))
                .as(db + ", read-write: a reader's own retry is still its grant")
                .isInstanceOf(Grant.class);
        backend.abandon(writer);
        AcquireResult later = backend.tryAcquire(request(key, "later").withHold(Hold.READ));
        assertThat(later)
                .as(db + ", read-write: once the writer gave up, readers share again")
                .isInstanceOf(Grant.class);
        assertThat(((Grant) later).token())
                .as(db + ", fencing: tokens increase across readers")
                .isGreaterThan(read.token());
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void everyAbandonedWriterTakesItsMarkAway(Database db) {
        LockBackend backend = backend(db);
        String key = key("marks");
        backend.tryAcquire(request(key, "first").withHold(Hold.READ));
        for (int round = 0; round < 3; round++) {
            AcquireRequest writer = request(key, "writer").withHold(Hold.WRITE);
            for (int attempt = 0; attempt < 3; attempt++) {
                assertThat(backend.tryAcquire(writer))
                        .as(db + ", read-write: a writer finds the key read")
                        .isInstanceOf(Held.class);
            }
            backend.abandon(writer);
            assertThat(backend.tryAcquire(request(key, "reader").withHold(Hold.READ)))
                    .as(db + ", read-write: writer " + round + " gave up and left no mark")
                    .isInstanceOf(Grant.class);
        }
    }
}
