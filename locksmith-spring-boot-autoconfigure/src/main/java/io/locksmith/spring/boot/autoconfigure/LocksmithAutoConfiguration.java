package io.locksmith.spring.boot.autoconfigure;

import io.locksmith.LockClient;
import io.locksmith.LockListener;
import io.locksmith.spring.LockActivity;
import io.locksmith.spring.Locked;
import io.locksmith.spring.LockedInterceptor;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;

/**
 * Locksmith for a Spring Boot application: a {@link LockClient} from the {@code locksmith.*}
 * properties (unless the application defines one), closed when the context closes; every
 * {@link LockListener} bean registered on every {@code LockClient} bean; and the advice behind
 * {@link Locked}, ordered outside {@code @Transactional}.
 */
@AutoConfiguration
@EnableConfigurationProperties(LocksmithProperties.class)
@Import(LockedProxyRegistrar.class)
public class LocksmithAutoConfiguration {

    /**
     * The application's client, for the backend {@code locksmith.uri} names: the backend module
     * for its scheme must be on the class path.
     *
     * @param properties the {@code locksmith.*} properties
     * @return an open client; the context closes it
     * @throws IllegalStateException if {@code locksmith.uri} is not set
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public LockClient lockClient(LocksmithProperties properties) {
        String uri = properties.getUri();
        if (uri == null || uri.isBlank()) {
            throw new IllegalStateException(
                    "locksmith.uri is not set, so there is no lock backend to connect to: set it"
                            + " (for example locksmith.uri=redis://localhost:6379 or jdbc:postgresql://db/app), or define a"
                            + " LockClient bean of your own; see docs/spring.md");
        }
        return LockClient.open(uri, properties.clientOptions());
    }

    /**
     * What this instance's locks are doing, for the locks endpoint and the health indicator; a
     * {@link LockListener} bean, so it is registered on the client like any other.
     *
     * @return the activity registry
     */
    @Bean
    @ConditionalOnMissingBean
    public LockActivity lockActivity() {
        return new LockActivity();
    }

    /**
     * Registers every {@link LockListener} bean (this starter's {@link LockActivity}, Micrometer's
     * meters, the application's own) on every {@link LockClient} bean as it is created.
     *
     * @param listeners the listener beans, looked up when a client is created
     * @return the post-processor
     */
    @Bean
    public static LockListenerRegistrar lockListenerRegistrar(ObjectProvider<LockListener> listeners) {
        return new LockListenerRegistrar(listeners);
    }

    /**
     * The advisor for {@link Locked} methods, at the highest precedence so that it runs outside
     * {@code @Transactional} (whose advisor has the lowest by default).
     *
     * @param client the client, looked up at the first call
     * @param activity the activity registry, looked up at the first call
     * @param events where loss events go
     * @param beans for references and placeholders in lock names
     * @return the advisor
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static Advisor lockedAdvisor(
            ObjectProvider<LockClient> client,
            ObjectProvider<LockActivity> activity,
            ApplicationEventPublisher events,
            BeanFactory beans) {
        // the client and registry are looked up lazily: advisors are made before ordinary beans
        LockedInterceptor interceptor = new LockedInterceptor(client::getObject, activity::getObject, events, beans);
        DefaultPointcutAdvisor advisor =
                new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, Locked.class, true), interceptor);
        advisor.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return advisor;
    }
}
