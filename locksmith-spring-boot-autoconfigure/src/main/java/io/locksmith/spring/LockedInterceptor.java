package io.locksmith.spring;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.spring.Locked.WhenBusy;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * The advice behind {@link Locked}: takes the lock, runs the method, and releases the lock when the
 * method ends, or after the transaction that was active when the lock was taken completes.
 *
 * <p>Runs before (outside) {@code @Transactional}'s advice: the auto-configuration orders its
 * advisor at {@link org.springframework.core.Ordered#HIGHEST_PRECEDENCE}.
 */
public final class LockedInterceptor implements MethodInterceptor {

    private static final Logger log = LoggerFactory.getLogger(LockedInterceptor.class);
    private static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);
    private static final boolean TRANSACTIONS = ClassUtils.isPresent(
            "org.springframework.transaction.support.TransactionSynchronizationManager",
            LockedInterceptor.class.getClassLoader());

    private final Supplier<LockClient> client;
    private final Supplier<LockActivity> activity;
    private final ApplicationEventPublisher events;
    private final LockNames names;

    /**
     * @param client the client to take locks from, looked up at the first call
     * @param activity where held locks are attached, for the lease left in the locks endpoint; looked
     *     up at the first call
     * @param events where {@link LockLostEvent}s are published
     * @param beans for {@code @bean} references and placeholders in lock names
     */
    public LockedInterceptor(
            Supplier<LockClient> client,
            Supplier<LockActivity> activity,
            ApplicationEventPublisher events,
            BeanFactory beans) {
        this.client = client;
        this.activity = activity;
        this.events = events;
        this.names = new LockNames(beans);
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Class<?> targetClass =
                target == null ? invocation.getMethod().getDeclaringClass() : AopUtils.getTargetClass(target);
        Method method = AopUtils.getMostSpecificMethod(invocation.getMethod(), targetClass);
        Locked locked = AnnotatedElementUtils.findMergedAnnotation(method, Locked.class);
        if (locked == null) {
            return invocation.proceed();
        }
        String name = names.resolve(locked, method, target, invocation.getArguments());
        LockClient locks = client.get();
        DistributedLock lock = locks.lock(name);
        Duration lease = duration(locked.lease(), "lease", method);
        if (lease != null) {
            lock = lock.withLease(lease);
        }
        Duration wait = duration(locked.waitFor(), "waitFor", method);
        Optional<LockHandle> acquired = switch (locked.whenBusy()) {
            case WAIT -> Optional.of(lock.acquire(wait == null ? DEFAULT_WAIT : wait));
            // no wait: a single attempt, which listeners hear as BUSY rather than a wait that timed out
            case SKIP, THROW -> wait == null || wait.isZero() ? lock.tryAcquire() : lock.tryAcquire(wait);
        };
        if (acquired.isEmpty()) {
            return busy(locked.whenBusy(), name, method, locks);
        }
        return run(invocation, acquired.get(), method);
    }

    private Object run(MethodInvocation invocation, LockHandle handle, Method method) throws Throwable {
        LockActivity activity = this.activity.get();
        Runnable release = () -> {
            activity.detach(handle);
            handle.close();
        };
        boolean afterTransaction;
        try {
            activity.attach(handle);
            String where = Methods.describe(method);
            handle.whenLost().thenAccept(reason -> {
                log.warn(
                        "lock '{}' (fencing token {}) was lost while {} held it: {}",
                        handle.name(),
                        handle.fencingToken(),
                        where,
                        reason);
                events.publishEvent(new LockLostEvent(handle.name(), handle.fencingToken(), reason, where));
            });
            // taken inside a transaction: whatever the method writes is committed (or rolled back)
            // before another instance can take the lock
            afterTransaction = TRANSACTIONS && TransactionRelease.registerIfActive(release);
        } catch (RuntimeException | Error e) {
            release.run();
            throw e;
        }
        LockContext.push(handle);
        try {
            return invocation.proceed();
        } finally {
            LockContext.pop();
            if (!afterTransaction) {
                release.run();
            }
        }
    }

    private static Object busy(WhenBusy whenBusy, String name, Method method, LockClient locks) {
        if (whenBusy == WhenBusy.THROW) {
            throw new LockBusyException(name, Methods.describe(method), locks.backend());
        }
        Class<?> type = method.getReturnType();
        if (type == Optional.class) {
            return Optional.empty();
        }
        if (type.isPrimitive() && type != void.class) {
            throw new IllegalStateException("lock '" + name + "' is busy and " + Methods.describe(method)
                    + " returns " + type + ", which cannot be skipped: make it return void, an object or an Optional,"
                    + " or use whenBusy = THROW");
        }
        log.debug("lock '{}' is busy: {} skipped", name, Methods.describe(method));
        return null;
    }

    private Duration duration(String text, String attribute, Method method) {
        String value = names.placeholders(text).trim();
        if (value.isEmpty()) {
            return null;
        }
        try {
            return DurationStyle.detectAndParse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                    "the @Locked " + attribute + " '" + value + "' of " + Methods.describe(method)
                            + " is not a duration: write 500ms, 5s, 1m or PT5S",
                    e);
        }
    }
}
