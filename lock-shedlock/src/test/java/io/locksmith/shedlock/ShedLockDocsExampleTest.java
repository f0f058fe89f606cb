package io.locksmith.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.LockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.junit.jupiter.api.Test;

/** The plain-Java example of docs/shedlock.md, run; keep the two alike. */
class ShedLockDocsExampleTest {

    @Test
    void theExecutorRunsTheJobWhichReadsItsFencingToken() {
        List<Long> report = new ArrayList<>();
        try (LockClient locks = LockClient.open("memory:")) {
            LockingTaskExecutor executor = new DefaultLockingTaskExecutor(new LocksmithLockProvider(locks));
            executor.executeWithLock(
                    (Runnable) () ->
                            report.add(LocksmithLockProvider.currentToken().orElseThrow()),
                    new LockConfiguration(
                            Instant.now(), "nightly-report", Duration.ofMinutes(10), Duration.ofSeconds(30)));
        }
        assertThat(report).as("the job ran once, with its lock's token").hasSize(1);
    }
}
