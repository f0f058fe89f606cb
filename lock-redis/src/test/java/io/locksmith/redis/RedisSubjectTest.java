package io.locksmith.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.tck.Faults;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The kit's fault hooks do what the kit's rules rely on. */
class RedisSubjectTest {

    private RedisSubject subject;
    private Faults faults;

    @BeforeEach
    void open() {
        subject = new RedisSubject(TestServers.redis());
        faults = subject.faults();
    }

    @AfterEach
    void close() {
        subject.close();
    }

    @Test
    void delayedRepliesSlowOnlyThatClientAndEndWithZero() {
        try (LockClient slow = subject.newClient(LockOptions.defaults());
                LockClient other = subject.newClient(LockOptions.defaults())) {
            slow.lock("hook-delay-warm").tryAcquire().ifPresent(LockHandle::close);
            faults.delayReplies(slow, Duration.ofMillis(600));
            assertThat(timed(() -> slow.lock("hook-delay").tryAcquire().ifPresent(LockHandle::close)))
                    .as("[redis] delayReplies: the client's call waits for its delayed reply")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(600));
            assertThat(timed(() -> other.lock("hook-delay-other").tryAcquire().ifPresent(LockHandle::close)))
                    .as("[redis] delayReplies: another client is not delayed")
                    .isLessThan(Duration.ofMillis(600));
            faults.delayReplies(slow, Duration.ZERO);
            slow.lock("hook-delay-drain").tryAcquire().ifPresent(LockHandle::close); // what was held back arrives
            assertThat(timed(() -> slow.lock("hook-delay-after").tryAcquire().ifPresent(LockHandle::close)))
                    .as("[redis] delayReplies: a zero delay ends it")
                    .isLessThan(Duration.ofMillis(600));
        }
    }

    @Test
    void aRestartedServerAnswersAgainAndHasForgottenItsLocks() {
        LockOptions options =
                LockOptions.builder().lease(Duration.ofSeconds(30)).build();
        try (LockClient holder = subject.newClient(options);
                LockClient next = subject.newClient(options)) {
            LockHandle held = holder.lock("hook-restart").acquire(Duration.ZERO);
            faults.restartServer();
            LockHandle after = next.lock("hook-restart").acquire(Duration.ofSeconds(10));
            assertThat(after.fencingToken())
                    .as("[redis] restartServer: without persistence the server comes back empty, its counter at 1")
                    .isEqualTo(1L);
            after.close();
            held.close();
        }
    }

    private static Duration timed(Runnable call) {
        long start = System.nanoTime();
        call.run();
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
