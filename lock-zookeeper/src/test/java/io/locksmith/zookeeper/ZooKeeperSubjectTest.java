package io.locksmith.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

/** The kit's fault hooks do what the kit's rules rely on. */
class ZooKeeperSubjectTest {

    @Test
    void removeQueueEntriesDeletesTheWaitersNodesAndKeepsTheHolders() throws Exception {
        TestServer server = TestServers.zookeeper();
        CuratorFramework admin = ZooKeeperSubject.admin(server.host() + ":" + server.port());
        try (ZooKeeperSubject subject = new ZooKeeperSubject(server);
                LockClient a = subject.newClient(options());
                LockClient b = subject.newClient(options())) {
            LockHandle held = a.lock("hooks-queue").acquire(Duration.ZERO);
            String holderNode =
                    admin.getChildren().forPath(LockPaths.lock("hooks-queue")).get(0);
            CompletableFuture<LockHandle> waiting = b.lock("hooks-queue").acquireAsync(Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> admin.getChildren()
                                    .forPath(LockPaths.lock("hooks-queue"))
                                    .size()
                            == 2);

            subject.faults().removeQueueEntries("hooks-queue");

            assertThat(admin.getChildren().forPath(LockPaths.lock("hooks-queue")))
                    .as("[zookeeper] removeQueueEntries: only the holder's node is left")
                    .containsExactly(holderNode);
            assertThat(held.isHeld())
                    .as("[zookeeper] removeQueueEntries: the holder keeps the lock")
                    .isTrue();
            held.close();
            waiting.get(30, TimeUnit.SECONDS).close(); // the waiter queues again and proceeds
        } finally {
            admin.close();
        }
    }

    @Test
    void restartServerKeepsThePortAndTheClientsWorkAfterwards() throws Exception {
        TestServer server = TestServers.zookeeper();
        try (ZooKeeperSubject subject = new ZooKeeperSubject(server);
                LockClient a = subject.newClient(options())) {
            a.lock("hooks-restart").acquire(Duration.ZERO).close();
            int port = server.port();

            subject.faults().restartServer();

            assertThat(server.port())
                    .as("[zookeeper] restartServer: the same port")
                    .isEqualTo(port);
            // the client reconnects on its own; until then an attempt may fail (the core's wait is not under test here)
            await("[zookeeper] restartServer: the client acquires again")
                    .atMost(Duration.ofSeconds(30))
                    .ignoreExceptionsInstanceOf(LockBackendException.class)
                    .until(() -> {
                        a.lock("hooks-restart").acquire(Duration.ofSeconds(5)).close();
                        return true;
                    });
        }
    }

    private static LockOptions options() {
        return LockOptions.builder().lease(ZooKeeperSubject.TEST_LEASE).build();
    }
}
