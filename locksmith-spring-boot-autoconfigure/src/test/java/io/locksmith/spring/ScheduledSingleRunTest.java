package io.locksmith.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockListener;
import io.locksmith.spring.Locked.WhenBusy;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Two instances of an application run the same {@code @Scheduled} job every second on Redis; with
 * {@code @Locked(whenBusy = SKIP)} exactly one of them runs it each tick and the other skips.
 */
class ScheduledSingleRunTest {

    /** What both instances did, shared because they run in one JVM. */
    static final Ticks TICKS = new Ticks();

    static final class Ticks {
        final List<Run> runs = new CopyOnWriteArrayList<>();
        final AtomicInteger skips = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
    }

    record Run(String instance, long second) {}

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class ReportApp {

        @Bean
        NightlyReport nightlyReport(@Value("${instance}") String instance) {
            return new NightlyReport(instance);
        }

        /** Hears this instance's skipped ticks: a LockListener bean is registered on the client. */
        @Bean
        LockListener skips() {
            return new LockListener() {
                @Override
                public void acquisitionEnded(AcquisitionEnded event) {
                    if (event.started().lockName().equals("nightly-report") && event.outcome() == Outcome.BUSY) {
                        TICKS.skips.incrementAndGet();
                    }
                }
            };
        }
    }

    static class NightlyReport {
        private final String instance;

        NightlyReport(String instance) {
            this.instance = instance;
        }

        @Scheduled(cron = "* * * * * *")
        @Locked(name = "nightly-report", whenBusy = WhenBusy.SKIP)
        public void run() {
            int now = TICKS.running.incrementAndGet();
            TICKS.mostAtOnce.accumulateAndGet(now, Math::max);
            TICKS.runs.add(new Run(instance, Instant.now().getEpochSecond()));
            // the work: it lasts until the other instance's tick has found the lock busy, at most 900 ms,
            // so that both instances' ticks of one second meet a held lock
            // (or while only one instance is up)
            int skipsBefore = TICKS.skips.get();
            try {
                await().atMost(Duration.ofMillis(900))
                        .pollInterval(5, TimeUnit.MILLISECONDS)
                        .until(() -> TICKS.skips.get() > skipsBefore);
            } catch (ConditionTimeoutException alone) {
                // the other instance is not up yet, or is stopping
            } finally {
                TICKS.running.decrementAndGet();
            }
        }
    }

    @Test
    void exactlyOneInstanceRunsTheJobEachTick() {
        String uri = TestServers.redis().uri() + "?prefix=scheduled-" + System.nanoTime();
        try (Instances instances = new Instances()) {
            instances.start(ReportApp.class, "locksmith.uri=" + uri, "instance=a");
            instances.start(ReportApp.class, "locksmith.uri=" + uri, "instance=b");
            int runsAtStart = TICKS.runs.size();
            await().atMost(Duration.ofSeconds(30)).until(() -> TICKS.runs.size() >= runsAtStart + 3);
        }
        Map<Long, List<String>> bySecond = TICKS.runs.stream()
                .collect(Collectors.groupingBy(Run::second, Collectors.mapping(Run::instance, Collectors.toList())));
        assertThat(bySecond.values())
                .as("[redis] @Scheduled + @Locked(SKIP): one run per tick, by second: %s", bySecond)
                .allSatisfy(instances -> assertThat(instances).hasSize(1));
        assertThat(TICKS.mostAtOnce.get())
                .as("[redis] @Scheduled + @Locked(SKIP): never two runs at once")
                .isEqualTo(1);
        assertThat(TICKS.skips.get())
                .as("[redis] @Scheduled + @Locked(SKIP): the other instance skipped its ticks")
                .isPositive();
    }
}
