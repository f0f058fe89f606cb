package io.locksmith.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PaymentProviderLimitTest {

    @Test
    void twoInstancesNeverMakeMoreThanThreeCallsAtOnce() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch gate = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(10);
        try (LockClient one = LockClient.open("memory://payment-example");
                LockClient two = LockClient.open("memory://payment-example")) {
            List<PaymentProviderLimit> instances =
                    List.of(new PaymentProviderLimit(one), new PaymentProviderLimit(two));
            List<CompletableFuture<String>> charges = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                PaymentProviderLimit instance = instances.get(i % 2);
                String order = "order-" + i;
                charges.add(CompletableFuture.supplyAsync(
                        () -> instance.call(() -> {
                            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                            try {
                                gate.await(1, TimeUnit.MINUTES);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            inFlight.decrementAndGet();
                            return order;
                        }),
                        threads));
            }
            await("three calls in flight").atMost(Duration.ofMinutes(1)).until(() -> inFlight.get() == 3);
            assertThat(charges.stream().filter(CompletableFuture::isDone))
                    .as("[memory] semaphore example: the other calls wait while three are in flight")
                    .isEmpty();
            gate.countDown();
            for (int i = 0; i < charges.size(); i++) {
                assertThat(charges.get(i).get(1, TimeUnit.MINUTES)).isEqualTo("order-" + i);
            }
            assertThat(most.get())
                    .as("[memory] semaphore example: calls in flight at once")
                    .isEqualTo(3);
        } finally {
            threads.shutdownNow();
        }
    }
}
