package io.locksmith.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockHandle;
import io.locksmith.spring.LockActivity;
import io.locksmith.spring.LockContext;
import io.locksmith.spring.Locked;
import io.locksmith.spring.LockedInterceptor;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionInterceptor;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The order-processing example, run as two instances of one application on one H2 database: the
 * lock for an order is taken outside the transaction that ships it, and released only after that
 * transaction has committed, so the next instance to take the lock sees the shipment.
 */
class OrderProcessingTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    /** How long instance A keeps a transaction open, lock held, while B waits for the lock. */
    private static final Duration HOLD_OPEN = Duration.ofMillis(500);

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableTransactionManagement
    static class OrdersApp {

        @Bean
        DataSource dataSource(@Value("${orders.db}") String url) {
            return new DriverManagerDataSource(url);
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        @Bean
        Orders orders(DataSource dataSource) {
            return new Orders(new JdbcTemplate(dataSource));
        }
    }

    /** Ships an order once, whichever instance gets to it. */
    static class Orders {
        private final JdbcTemplate db;
        private volatile Runnable beforeCommit = () -> {};

        Orders(JdbcTemplate db) {
            this.db = db;
        }

        /**
         * Ships the order unless it was shipped already; the lock keeps two instances from
         * shipping it at once, the fencing token goes with the row.
         *
         * @return whether this call shipped it
         */
        @Locked(name = "order:#{#orderId}", waitFor = "30s")
        @Transactional
        public boolean ship(long orderId) {
            Integer shipped =
                    db.queryForObject("SELECT COUNT(*) FROM shipments WHERE order_id = ?", Integer.class, orderId);
            if (shipped != null && shipped > 0) {
                return false;
            }
            db.update(
                    "INSERT INTO shipments (order_id, token) VALUES (?, ?)",
                    orderId,
                    LockContext.current().fencingToken());
            runBeforeCommit();
            return true;
        }

        /** Writes a shipment under the lock, in the caller's transaction. */
        @Locked(name = "order:#{#orderId}", waitFor = "30s")
        public void shipInCallersTransaction(long orderId) {
            db.update(
                    "INSERT INTO shipments (order_id, token) VALUES (?, ?)",
                    orderId,
                    LockContext.current().fencingToken());
        }

        public int shipments(long orderId) {
            Integer n = db.queryForObject("SELECT COUNT(*) FROM shipments WHERE order_id = ?", Integer.class, orderId);
            return n == null ? 0 : n;
        }

        public void beforeCommit(Runnable hook) {
            beforeCommit = hook;
        }

        private void runBeforeCommit() {
            Runnable hook = beforeCommit;
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void beforeCommit(boolean readOnly) {
                    hook.run();
                }
            });
        }
    }

    // started once for the class: the tests use different orders, so different locks and rows
    private static ConfigurableApplicationContext a;
    private static ConfigurableApplicationContext b;

    @BeforeAll
    static void startTwoInstances() {
        String db = "jdbc:h2:mem:orders-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
        new JdbcTemplate(new DriverManagerDataSource(db))
                .execute("CREATE TABLE shipments (order_id BIGINT NOT NULL, token BIGINT NOT NULL)");
        a = start(db);
        b = start(db);
    }

    @AfterEach
    void removeHooks() {
        a.getBean(Orders.class).beforeCommit(() -> {});
    }

    @AfterAll
    static void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    private static ConfigurableApplicationContext start(String db) {
        return new SpringApplicationBuilder(OrdersApp.class)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .properties("orders.db=" + db, "locksmith.uri=" + db, "locksmith.backoff-max=200ms")
                .run();
    }

    @Test
    void theLockIsHeldUntilTheMethodsTransactionHasCommitted() throws Exception {
        Orders ordersA = a.getBean(Orders.class);
        Orders ordersB = b.getBean(Orders.class);
        CountDownLatch bStarted = new CountDownLatch(1);
        CompletableFuture<Boolean> shippedByB = new CompletableFuture<>();
        // A's transaction is about to commit, lock held: B asks for the lock now, and must not get it
        // before A has committed
        ordersA.beforeCommit(() -> {
            CompletableFuture.runAsync(() -> {
                bStarted.countDown();
                try {
                    shippedByB.complete(ordersB.ship(7));
                } catch (RuntimeException e) {
                    shippedByB.completeExceptionally(e);
                }
            });
            awaitWaiting(b, "order:7");
            assertThat(waitFor(shippedByB, HOLD_OPEN))
                    .as("[jdbc/h2] @Locked + @Transactional: B must not get the lock while A's transaction is open")
                    .isEmpty();
        });

        assertThat(ordersA.ship(7))
                .as("[jdbc/h2] @Locked + @Transactional: A ships order 7")
                .isTrue();
        assertThat(bStarted.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(shippedByB.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .as("[jdbc/h2] @Locked + @Transactional: B, taking the lock after A, sees A's committed shipment")
                .isFalse();
        assertThat(ordersA.shipments(7))
                .as("[jdbc/h2] order 7 is shipped exactly once")
                .isEqualTo(1);
    }

    @Test
    void theLockAdviceRunsOutsideTheTransactionAdvice() {
        Advisor[] chain = ((Advised) a.getBean(Orders.class)).getAdvisors();
        int lock = indexOf(chain, LockedInterceptor.class);
        int transaction = indexOf(chain, TransactionInterceptor.class);
        assertThat(lock)
                .as("[spring] the @Locked advice is applied to the bean")
                .isNotNegative();
        assertThat(transaction)
                .as("[spring] the @Transactional advice is applied to the bean")
                .isNotNegative();
        assertThat(lock)
                .as("[spring] @Locked comes first in the chain, so it runs outside @Transactional")
                .isLessThan(transaction);
    }

    private static int indexOf(Advisor[] chain, Class<?> advice) {
        for (int i = 0; i < chain.length; i++) {
            if (advice.isInstance(chain[i].getAdvice())) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aLockTakenInsideATransactionIsReleasedAfterItCommits() throws Exception {
        Orders ordersA = a.getBean(Orders.class);
        Orders ordersB = b.getBean(Orders.class);
        TransactionTemplate transaction = new TransactionTemplate(a.getBean(PlatformTransactionManager.class));
        CompletableFuture<Boolean> shippedByB = new CompletableFuture<>();

        transaction.executeWithoutResult(status -> {
            ordersA.shipInCallersTransaction(8);
            // the @Locked method has returned, but the transaction it wrote in is still open
            CompletableFuture.runAsync(() -> {
                try {
                    shippedByB.complete(ordersB.ship(8));
                } catch (RuntimeException e) {
                    shippedByB.completeExceptionally(e);
                }
            });
            awaitWaiting(b, "order:8");
            assertThat(waitFor(shippedByB, HOLD_OPEN))
                    .as("[jdbc/h2] @Locked inside a transaction: the lock is kept until the transaction completes")
                    .isEmpty();
        });

        assertThat(shippedByB.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .as("[jdbc/h2] @Locked inside a transaction: B, taking the lock after the commit, sees the shipment")
                .isFalse();
    }

    @Test
    void aLockTakenInsideATransactionIsReleasedAfterItRollsBack() {
        Orders ordersA = a.getBean(Orders.class);
        TransactionTemplate transaction = new TransactionTemplate(a.getBean(PlatformTransactionManager.class));
        LockActivity activityA = a.getBean(LockActivity.class);

        transaction.executeWithoutResult(status -> {
            ordersA.shipInCallersTransaction(9);
            assertThat(activityA.held())
                    .as("[jdbc/h2] @Locked inside a transaction: still held after the method returned")
                    .extracting(LockActivity.HeldLock::name)
                    .containsExactly("order:9");
            status.setRollbackOnly();
        });

        assertThat(activityA.held())
                .as("[jdbc/h2] @Locked inside a transaction: released after the rollback")
                .isEmpty();
        Optional<LockHandle> free =
                b.getBean(io.locksmith.LockClient.class).lock("order:9").tryAcquire();
        free.ifPresent(LockHandle::close);
        assertThat(free)
                .as("[jdbc/h2] @Locked inside a transaction: another instance can take the lock after the rollback")
                .isPresent();
        assertThat(ordersA.shipments(9))
                .as("[jdbc/h2] the rolled-back shipment is gone")
                .isZero();
    }

    private static void awaitWaiting(ConfigurableApplicationContext instance, String lockName) {
        LockActivity activity = instance.getBean(LockActivity.class);
        await().atMost(BOUND)
                .until(() -> activity.waiters().stream().anyMatch(w -> w.name().equals(lockName)));
    }

    /** @return the future's value if it completes within {@code bound}; empty if it does not */
    private static <T> Optional<T> waitFor(CompletableFuture<T> future, Duration bound) {
        try {
            return Optional.of(future.get(bound.toMillis(), TimeUnit.MILLISECONDS));
        } catch (java.util.concurrent.TimeoutException e) {
            return Optional.empty();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
