package io.locksmith.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LossReason;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;

/**
 * A lock lost while its {@code @Locked} method runs is published as a {@link LockLostEvent}; the
 * method sees the loss on {@link LockContext#current()}. The lease is short and renewal off, so the
 * lease runs out while the method waits.
 */
class LockLostEventTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Slow slow() {
            return new Slow();
        }

        @Bean
        Losses losses() {
            return new Losses();
        }
    }

    static class Slow {
        /** @return whether the lock was still held when the method returned */
        @Locked(name = "slow-job", lease = "300ms")
        public boolean outliveTheLease(Losses losses) {
            await().atMost(Duration.ofSeconds(30)).until(() -> !losses.events().isEmpty());
            return LockContext.current().isHeld();
        }
    }

    static class Losses {
        private final List<LockLostEvent> events = new CopyOnWriteArrayList<>();

        @EventListener
        public void on(LockLostEvent event) {
            events.add(event);
        }

        public List<LockLostEvent> events() {
            return events;
        }
    }

    @Test
    void aLossDuringTheMethodIsPublishedAsAnEvent() {
        try (Instances instances = new Instances()) {
            ConfigurableApplicationContext app =
                    instances.start(App.class, "locksmith.uri=memory:", "locksmith.renew=false");
            Losses losses = app.getBean(Losses.class);
            boolean heldAtTheEnd = app.getBean(Slow.class).outliveTheLease(losses);

            assertThat(heldAtTheEnd)
                    .as("[memory] LockContext: the method sees that its lock was lost")
                    .isFalse();
            assertThat(losses.events())
                    .as("[memory] LockLostEvent: one event for the lost lock")
                    .singleElement()
                    .satisfies(e -> {
                        assertThat(e.lockName()).isEqualTo("slow-job");
                        assertThat(e.reason()).isEqualTo(LossReason.LEASE_EXPIRED);
                        assertThat(e.method()).isEqualTo("Slow.outliveTheLease");
                        assertThat(e.fencingToken()).isPositive();
                    });
        }
    }
}
