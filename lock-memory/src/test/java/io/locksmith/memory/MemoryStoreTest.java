package io.locksmith.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.spi.Grant;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The store's fault-facing operations, which the kit's rules lean on: abandon and restart. */
class MemoryStoreTest {

    private static final long LEASE = Duration.ofSeconds(30).toNanos();

    @Test
    void abandonRemovesTheKeyOnlyForItsOwnOwner() {
        MemoryStore store = new MemoryStore();
        assertThat(store.tryAcquire("k", "holder", LEASE)).isInstanceOf(Grant.class);
        assertThat(store.abandon("k", "someone-else"))
                .as("abandon must never remove another owner's key")
                .isFalse();
        assertThat(store.holder("k").owner()).isEqualTo("holder");
        assertThat(store.abandon("k", "holder"))
                .as("abandon removes the owner's own key")
                .isTrue();
        assertThat(store.holder("k")).isNull();
    }

    @Test
    void aRestartDropsEveryLockButKeepsTokensIncreasing() {
        MemoryStore store = new MemoryStore();
        long before = ((Grant) store.tryAcquire("k", "holder", LEASE)).token();
        store.restart(Duration.ZERO);
        assertThat(store.holder("k"))
                .as("a restart without persistence keeps no lock")
                .isNull();
        long after = ((Grant) store.tryAcquire("k", "next", LEASE)).token();
        assertThat(after).as("tokens keep increasing across a restart").isGreaterThan(before);
        assertThat(store.isDown()).isFalse();
    }
}
