package io.locksmith.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The provider's own rules, on a backend of any kind (the in-memory one): its arguments and the running job's lock. */
class LocksmithLockProviderTest {

    private final LockClient client = LockClient.open("memory:");
    private final LocksmithLockProvider provider = new LocksmithLockProvider(client);

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void aZeroLockAtMostForIsRefusedNamingTheLock() {
        assertThatThrownBy(() -> provider.lock(config("report", Duration.ZERO)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessage("lockAtMostFor of lock 'report' is 0s: it is the lock's lease, and must be positive");
    }

    @Test
    void aLockAtMostForTheBackendCannotKeepIsRefusedNamingItTheBoundsAndWhereToRead() {
        assertThatThrownBy(() -> provider.lock(config("report", Duration.ofNanos(500_000))))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessage(
                        "lockAtMostFor of lock 'report' (0.0005s) cannot be its lease: a lease of 0.0005s is outside what "
                                + client.backend()
                                + " can keep (1ms to 8760h); see docs/shedlock.md, \"Lease bounds\"");
    }

    @Test
    void anExtensionToAZeroLockAtMostForIsRefusedAndTheLockStaysValid() {
        SimpleLock lock =
                provider.lock(config("report", Duration.ofSeconds(10))).orElseThrow();
        assertThatThrownBy(() -> lock.extend(Duration.ZERO, Duration.ZERO))
                .isInstanceOf(LockConfigurationException.class);
        assertThat(provider.lock(config("report", Duration.ofSeconds(10))))
                .as("the lock must still be held")
                .isEmpty();
        lock.unlock();
        SimpleLock again =
                provider.lock(config("report", Duration.ofSeconds(10))).orElseThrow();
        again.unlock();
    }

    @Test
    void nestedJobsSeeTheInnermostTokenAndTheOuterOneAgainAfterIt() {
        SimpleLock outer =
                provider.lock(config("outer", Duration.ofSeconds(10))).orElseThrow();
        long outerToken = LocksmithLockProvider.currentToken().orElseThrow();
        SimpleLock inner =
                provider.lock(config("inner", Duration.ofSeconds(10))).orElseThrow();
        assertThat(LocksmithLockProvider.currentLock().orElseThrow().name())
                .as("the innermost job's lock")
                .isEqualTo("inner");
        inner.unlock();
        assertThat(LocksmithLockProvider.currentToken())
                .as("the outer job's token after the inner job")
                .hasValue(outerToken);
        outer.unlock();
        assertThat(LocksmithLockProvider.currentLock())
                .as("no lock once every job ended")
                .isEmpty();
    }

    @Test
    void anotherThreadSeesNoLockOfTheJob() {
        SimpleLock lock =
                provider.lock(config("report", Duration.ofSeconds(10))).orElseThrow();
        assertThat(CompletableFuture.supplyAsync(LocksmithLockProvider::currentToken)
                        .join())
                .as("a thread that runs no job sees no token")
                .isEmpty();
        lock.unlock();
    }

    @Test
    void aNameLocksmithCannotTakeIsRefused() {
        assertThatThrownBy(() -> provider.lock(config("x".repeat(1025), Duration.ofSeconds(10))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static LockConfiguration config(String name, Duration lockAtMostFor) {
        return new LockConfiguration(Instant.now(), name, lockAtMostFor, Duration.ZERO);
    }
}
