package io.locksmith.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.PermitMismatchException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The store's semaphores and read-write locks, one atomic step at a time, as the Hold javadoc states them. */
class MemoryStoreSharedKindsTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final String BACKEND = "memory:";

    private final MemoryStore store = new MemoryStore();

    private static AcquireRequest request(String key, String owner, Hold hold) {
        return AcquireRequest.of(key, key, owner, LEASE).withHold(hold);
    }

    private AcquireResult take(String key, String owner, Hold hold) {
        return store.tryAcquireShared(request(key, owner, hold), BACKEND);
    }

    private long token(AcquireResult result) {
        assertThat(result).as("memory store: expected a grant").isInstanceOf(Grant.class);
        return ((Grant) result).token();
    }

    @Test
    void aSemaphoreAdmitsItsPermitsAndNoMoreWithTokensIncreasingAcrossPermits() {
        Hold three = Hold.permitOf(3);
        long a = token(take("s", "a", three));
        long b = token(take("s", "b", three));
        long c = token(take("s", "c", three));
        assertThat(take("s", "d", three))
                .as("memory store, semaphore: a fourth holder of three permits is refused")
                .isInstanceOf(Held.class);
        assertThat(store.releaseShared(Hold.Kind.PERMIT, "s", "b", b)).isTrue();
        long d = token(take("s", "d", three));
        assertThat(new long[] {a, b, c, d})
                .as("memory store, semaphore: tokens strictly increase in grant order across permits")
                .isSorted()
                .doesNotHaveDuplicates();
        assertThat(store.holders(Hold.Kind.PERMIT, "s"))
                .extracting(h -> h.state().owner())
                .as("memory store, semaphore: holders are listed in grant order")
                .containsExactly("a", "c", "d");
    }

    @Test
    void aPermitOfAnotherNumberFailsWhileTheKeyIsHeldAndSetsItOnceFree() {
        long held = token(take("s", "a", Hold.permitOf(3)));
        assertThatThrownBy(() -> take("s", "b", Hold.permitOf(2)))
                .as("memory store, semaphore: a mismatch names both numbers")
                .isInstanceOf(PermitMismatchException.class)
                .hasMessageContaining("has 3 permits")
                .hasMessageContaining("one of 2");
        store.releaseShared(Hold.Kind.PERMIT, "s", "a", held);
        token(take("s", "b", Hold.permitOf(2)));
        token(take("s", "c", Hold.permitOf(2)));
        assertThat(take("s", "d", Hold.permitOf(2)))
                .as("memory store, semaphore: the first acquisition on a free key set the number to 2")
                .isInstanceOf(Held.class);
    }

    @Test
    void aRetriedAttemptOfAGrantedOwnerIsTheSameGrant() {
        long first = token(take("s", "a", Hold.permitOf(1)));
        assertThat(token(take("s", "a", Hold.permitOf(1))))
                .as("memory store, semaphore: a retried attempt whose answer was lost gets the same token")
                .isEqualTo(first);
        long read = token(take("rw", "r", Hold.READ));
        assertThat(token(take("rw", "r", Hold.READ)))
                .as("memory store, read-write lock: the same for a reader")
                .isEqualTo(read);
    }

    @Test
    void theThreeFamiliesOfOneKeyNeverMeet() {
        assertThat(store.tryAcquire("x", "lock", LEASE.toNanos())).isInstanceOf(Grant.class);
        token(take("x", "permit", Hold.permitOf(1)));
        token(take("x", "writer", Hold.WRITE));
        assertThat(store.holder("x").owner())
                .as("memory store: the lock x is the lock's alone")
                .isEqualTo("lock");
        assertThat(store.holders(Hold.Kind.PERMIT, "x"))
                .extracting(h -> h.state().owner())
                .containsExactly("permit");
        assertThat(store.holders(Hold.Kind.READ, "x"))
                .extracting(h -> h.state().owner())
                .containsExactly("writer");
    }

    @Test
    void readersShareAndAWriterExcludesBothSidesWithTokensIncreasingAcrossSides() {
        long r1 = token(take("rw", "r1", Hold.READ));
        long r2 = token(take("rw", "r2", Hold.READ));
        assertThat(take("rw", "w", Hold.WRITE))
                .as("memory store, read-write lock: a writer waits for the readers")
                .isInstanceOf(Held.class);
        store.abandonShared(Hold.Kind.WRITE, "rw", "w");
        store.releaseShared(Hold.Kind.READ, "rw", "r1", r1);
        store.releaseShared(Hold.Kind.READ, "rw", "r2", r2);
        long w = token(take("rw", "w", Hold.WRITE));
        assertThat(take("rw", "r3", Hold.READ))
                .as("memory store, read-write lock: no reader while a writer holds")
                .isInstanceOf(Held.class);
        assertThat(take("rw", "w2", Hold.WRITE))
                .as("memory store, read-write lock: no second writer")
                .isInstanceOf(Held.class);
        store.abandonShared(Hold.Kind.WRITE, "rw", "w2");
        assertThat(store.holders(Hold.Kind.WRITE, "rw"))
                .extracting(LockInspector.Holder::kind)
                .containsExactly(Hold.Kind.WRITE);
        store.releaseShared(Hold.Kind.WRITE, "rw", "w", w);
        long r3 = token(take("rw", "r3", Hold.READ));
        assertThat(new long[] {r1, r2, w, r3})
                .as("memory store, read-write lock: tokens strictly increase across readers and writers")
                .isSorted()
                .doesNotHaveDuplicates();
    }

    @Test
    void aWaitingWritersMarkKeepsNewReadersOutUntilItIsGrantedOrAbandoned() {
        long r1 = token(take("rw", "r1", Hold.READ));
        assertThat(take("rw", "w", Hold.WRITE)).isInstanceOf(Held.class);
        assertThat(take("rw", "r2", Hold.READ))
                .as("memory store, read-write lock: no new reader while a writer waits")
                .isInstanceOf(Held.class);
        store.releaseShared(Hold.Kind.READ, "rw", "r1", r1);
        assertThat(take("rw", "r2", Hold.READ))
                .as("memory store, read-write lock: not even on a free key: the writer is next")
                .isInstanceOf(Held.class);
        long w = token(take("rw", "w", Hold.WRITE));
        store.releaseShared(Hold.Kind.WRITE, "rw", "w", w);
        token(take("rw", "r2", Hold.READ)); // the grant ended the mark

        assertThat(take("rw", "w2", Hold.WRITE)).isInstanceOf(Held.class);
        assertThat(store.abandonShared(Hold.Kind.WRITE, "rw", "w2"))
                .as("memory store, read-write lock: abandon drops the waiting writer's mark")
                .isTrue();
        token(take("rw", "r3", Hold.READ));
    }

    @Test
    void aWaitingWritersMarkRunsOutTwiceItsLeaseAfterItsLatestAttempt() {
        Duration shortLease = Duration.ofMillis(100);
        long r1 = token(take("rw", "r1", Hold.READ));
        AcquireRequest writer = AcquireRequest.of("rw", "rw", "w", shortLease).withHold(Hold.WRITE);
        AcquireResult waiting = store.tryAcquireShared(writer, BACKEND);
        assertThat(((Held) waiting).remainingLease())
                .as(
                        "memory store, read-write lock: a writer is told to come back within its lease, before its mark ends")
                .hasValueSatisfying(d -> assertThat(d).isLessThanOrEqualTo(shortLease));
        assertThat(take("rw", "r2", Hold.READ)).isInstanceOf(Held.class);
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> assertThat(take("rw", "r2", Hold.READ))
                        .as("memory store, read-write lock: a writer that stopped trying keeps readers out"
                                + " only for twice its lease")
                        .isInstanceOf(Grant.class));
        store.releaseShared(Hold.Kind.READ, "rw", "r1", r1);
    }

    @Test
    void renewalReleaseAndAbandonAreOwnerAndTokenChecked() {
        long mine = token(take("s", "a", Hold.permitOf(2)));
        assertThat(store.renewShared(Hold.Kind.PERMIT, "s", "b", mine, LEASE.toNanos()))
                .as("memory store: another owner does not renew a permit")
                .isFalse();
        assertThat(store.renewShared(Hold.Kind.PERMIT, "s", "a", mine + 1, LEASE.toNanos()))
                .as("memory store: nor does the owner under another token")
                .isFalse();
        assertThat(store.renewShared(Hold.Kind.PERMIT, "s", "a", mine, LEASE.toNanos()))
                .isTrue();
        assertThat(store.renewShared(Hold.Kind.READ, "s", "a", mine, LEASE.toNanos()))
                .as("memory store: nor does the same owner in another family")
                .isFalse();
        assertThat(store.releaseShared(Hold.Kind.PERMIT, "s", "b", mine)).isFalse();
        assertThat(store.abandonShared(Hold.Kind.PERMIT, "s", "b")).isFalse();
        assertThat(store.holders(Hold.Kind.PERMIT, "s")).hasSize(1);
        assertThat(store.releaseShared(Hold.Kind.PERMIT, "s", "a", mine)).isTrue();
        assertThat(store.releaseShared(Hold.Kind.PERMIT, "s", "a", mine))
                .as("memory store: a permit is released once")
                .isFalse();
    }

    @Test
    void anExpiredPermitCountsForNothing() {
        AcquireRequest brief =
                AcquireRequest.of("s", "s", "a", Duration.ofMillis(50)).withHold(Hold.permitOf(1));
        long token = token(store.tryAcquireShared(brief, BACKEND));
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> store.holders(Hold.Kind.PERMIT, "s").isEmpty());
        assertThat(store.renewShared(Hold.Kind.PERMIT, "s", "a", token, LEASE.toNanos()))
                .as("memory store: an expired permit is not renewed")
                .isFalse();
        token(take("s", "b", Hold.permitOf(4))); // and its number no longer binds
    }

    @Test
    void aRestartDropsSemaphoresAndReadWriteLocks() {
        token(take("s", "a", Hold.permitOf(1)));
        token(take("rw", "w", Hold.WRITE));
        store.restart(Duration.ZERO);
        assertThat(store.holders(Hold.Kind.PERMIT, "s")).isEmpty();
        assertThat(store.holders(Hold.Kind.WRITE, "rw")).isEmpty();
    }
}
