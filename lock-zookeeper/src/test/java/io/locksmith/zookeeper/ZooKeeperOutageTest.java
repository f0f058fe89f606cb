package io.locksmith.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockException;
import io.locksmith.LockHandle;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The server down while locks are held and asked for: an outage must cost a bounded number of
 * attempts and log lines, and the client must work again once the server is back. This stops the
 * JVM's shared ZooKeeper server, so it restarts it before it ends.
 */
class ZooKeeperOutageTest {

    /** Generous: a few connection-state lines and one warning per failed call; the defect wrote megabytes. */
    private static final int MAX_LOG_BYTES = 256 * 1024;

    @Test
    void aLockCallDuringAnOutageCostsABoundedLogAndTheClientRecoversWhenTheServerIsBack() throws Exception {
        TestServer server = TestServers.zookeeper();
        String uri = "zookeeper://" + server.host() + ":" + server.port() + "?lease=4s&connection-timeout=1s";
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        try (LockClient locks = LockClient.open(uri)) {
            LockHandle held = locks.lock("outage-held").acquire(Duration.ZERO);
            System.setErr(new PrintStream(new TeeStream(log, stderr), true, StandardCharsets.UTF_8));
            try {
                server.kill();
                assertThatThrownBy(() -> locks.lock("outage").acquire(Duration.ofSeconds(3)))
                        .isInstanceOf(LockException.class);
                // Curator's clean-up of the failed create ran away within ~3 s of the outage: watch for longer
                await("[zookeeper] outage: the log stays under " + MAX_LOG_BYTES + " bytes")
                        .during(Duration.ofSeconds(6))
                        .atMost(Duration.ofSeconds(8))
                        .until(() -> log.size() < MAX_LOG_BYTES);
            } finally {
                System.setErr(stderr);
                server.restart();
            }
            String text = log.toString(StandardCharsets.UTF_8);
            assertThat(text)
                    .as("[zookeeper] outage: no runaway recursion in the client")
                    .doesNotContain("StackOverflowError");
            assertThat(log.size())
                    .as("[zookeeper] outage: the log of a 10 s outage stays small")
                    .isLessThan(MAX_LOG_BYTES);

            // the client reconnects on its own; an attempt before it has may fail, and is tried again
            AtomicReference<LockHandle> acquired = new AtomicReference<>();
            await("[zookeeper] outage: the client acquires again once the server is back")
                    .atMost(Duration.ofSeconds(30))
                    .ignoreExceptionsInstanceOf(LockBackendException.class)
                    .until(() ->
                            acquired.compareAndSet(null, locks.lock("outage").acquire(Duration.ofSeconds(5))));
            LockHandle again = acquired.get();
            CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> {
                again.close();
                held.close();
            });
            closing.get(30, TimeUnit.SECONDS); // close() returns, whatever became of the held lock
        }
    }

    /** Writes to the capture and to the real stderr, so the test's output still shows what happened. */
    private static final class TeeStream extends java.io.OutputStream {
        private final ByteArrayOutputStream capture;
        private final PrintStream out;

        TeeStream(ByteArrayOutputStream capture, PrintStream out) {
            this.capture = capture;
            this.out = out;
        }

        @Override
        public synchronized void write(int b) {
            capture.write(b);
            out.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            capture.write(b, off, len);
            out.write(b, off, len);
        }
    }
}
