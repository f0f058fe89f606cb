package io.locksmith.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockListener;
import io.locksmith.LockOptions;
import io.locksmith.spring.LockActivity;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The beans the auto-configuration makes from the properties, and when it steps aside. */
class LocksmithAutoConfigurationTest {

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(LocksmithAutoConfiguration.class, LocksmithActuatorAutoConfiguration.class));

    @Test
    void theClientHasTheOptionsThePropertiesSet() {
        contexts.withPropertyValues(
                        "locksmith.uri=memory:",
                        "locksmith.lease=12s",
                        "locksmith.renew-interval=3s",
                        "locksmith.prefix=billing",
                        "locksmith.backoff-min=20ms",
                        "locksmith.backoff-max=400ms")
                .run(context -> {
                    LockOptions options = context.getBean(LockClient.class).options();
                    assertThat(options.lease()).as("[memory] locksmith.lease").isEqualTo(Duration.ofSeconds(12));
                    assertThat(options.renewInterval())
                            .as("[memory] locksmith.renew-interval")
                            .isEqualTo(Duration.ofSeconds(3));
                    assertThat(options.prefix()).as("[memory] locksmith.prefix").isEqualTo("billing");
                    assertThat(options.backoffMin())
                            .as("[memory] locksmith.backoff-min")
                            .isEqualTo(Duration.ofMillis(20));
                    assertThat(options.backoffMax())
                            .as("[memory] locksmith.backoff-max")
                            .isEqualTo(Duration.ofMillis(400));
                    assertThat(context)
                            .as("[memory] the health indicator is there")
                            .hasSingleBean(LocksmithHealthIndicator.class);
                });
    }

    @Test
    void withoutAUriTheContextFailsNamingTheProperty() {
        contexts.run(context -> assertThat(context)
                .hasFailed()
                .getFailure()
                .rootCause()
                .as("[autoconfigure] no locksmith.uri: the failure names the property and the way out")
                .hasMessageContaining("locksmith.uri is not set")
                .hasMessageContaining("LockClient bean"));
    }

    @Test
    void anUnknownBackendOptionFailsTheContext() {
        contexts.withPropertyValues("locksmith.uri=memory:", "locksmith.backend.no-such-option=1")
                .run(context -> assertThat(context)
                        .as("[memory] an option the backend does not know fails the start")
                        .hasFailed());
    }

    @Test
    void theApplicationsOwnClientIsUsedAndClosedWithTheContextAndHearsTheListenerBeans() {
        Recording.events.clear();
        LockClient[] own = new LockClient[1];
        contexts.withUserConfiguration(OwnClient.class).run(context -> {
            own[0] = context.getBean(LockClient.class);
            assertThat(own[0].options().prefix())
                    .as("[memory] @ConditionalOnMissingBean: the application's client")
                    .isEqualTo("own");
            try (LockHandle held = own[0].lock("job").acquire(Duration.ofSeconds(5))) {
                assertThat(held.isHeld()).isTrue();
                assertThat(context.getBean(LockActivity.class).held())
                        .as("[memory] the activity registry hears the client")
                        .extracting(LockActivity.HeldLock::name)
                        .containsExactly("job");
            }
            assertThat(Recording.events)
                    .as("[memory] every LockListener bean is registered on the client")
                    .contains("held job", "released job");
        });
    }

    @Test
    void thePropertiesHaveGeneratedMetadataForIdes() throws Exception {
        String metadata;
        try (var in = LocksmithProperties.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in)
                    .as("[autoconfigure] the configuration processor wrote the metadata")
                    .isNotNull();
            metadata = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertThat(metadata)
                .as("[autoconfigure] metadata: every property, with its description")
                .contains(
                        "\"locksmith.uri\"",
                        "\"locksmith.lease\"",
                        "\"locksmith.renew\"",
                        "\"locksmith.renew-interval\"",
                        "\"locksmith.prefix\"",
                        "\"locksmith.backoff-min\"",
                        "\"locksmith.backoff-max\"",
                        "\"locksmith.backend\"",
                        "\"management.health.locksmith.enabled\"")
                .contains("The backend's URI");
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnClient {
        @Bean(destroyMethod = "close")
        LockClient ownClient() {
            return LockClient.open(
                    "memory:", LockOptions.builder().prefix("own").build());
        }

        @Bean
        LockListener recording() {
            return new Recording();
        }
    }

    static final class Recording implements LockListener {
        static final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void held(Hold event) {
            events.add("held " + event.lockName());
        }

        @Override
        public void released(HoldEnded event) {
            events.add("released " + event.hold().lockName());
        }
    }
}
