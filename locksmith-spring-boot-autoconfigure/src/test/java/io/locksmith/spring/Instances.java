package io.locksmith.spring;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Application instances in one JVM: each a real Spring Boot context with the auto-configuration,
 * standing for one process of a clustered application. Closes them all at the end of a test.
 */
final class Instances implements AutoCloseable {

    private final List<ConfigurableApplicationContext> started = new ArrayList<>();

    /**
     * @param application the {@code @SpringBootConfiguration} class
     * @param properties {@code key=value} pairs, {@code locksmith.uri} among them
     */
    ConfigurableApplicationContext start(Class<?> application, String... properties) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .properties(properties)
                .run();
        started.add(context);
        return context;
    }

    @Override
    public void close() {
        started.forEach(ConfigurableApplicationContext::close);
    }
}
