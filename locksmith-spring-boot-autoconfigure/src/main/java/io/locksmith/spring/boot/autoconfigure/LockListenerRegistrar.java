package io.locksmith.spring.boot.autoconfigure;

import io.locksmith.LockClient;
import io.locksmith.LockListener;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Registers every {@link LockListener} bean on each {@link LockClient} bean once it is initialized,
 * the auto-configured one or the application's own, so that metrics and the locks endpoint hear
 * locks taken from the start. This is where lock-micrometer's meters join: a {@code LockMeters}
 * bean is a listener bean.
 */
public final class LockListenerRegistrar implements BeanPostProcessor {

    private final ObjectProvider<LockListener> listeners;

    /** @param listeners the listener beans, looked up when a client is created */
    public LockListenerRegistrar(ObjectProvider<LockListener> listeners) {
        this.listeners = listeners;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof LockClient client) {
            // the client's close() drops its listeners with it
            listeners.orderedStream().forEach(client::addListener);
        }
        return bean;
    }
}
