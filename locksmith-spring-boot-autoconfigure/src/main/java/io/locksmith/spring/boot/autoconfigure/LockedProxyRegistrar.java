package io.locksmith.spring.boot.autoconfigure;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Makes sure an auto-proxy creator is there to apply the {@code @Locked} advisor, as
 * {@code @EnableTransactionManagement} does for its own: also when the application switched off
 * Spring Boot's AOP auto-configuration ({@code spring.aop.auto=false}).
 */
final class LockedProxyRegistrar implements ImportBeanDefinitionRegistrar {

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
    }
}
