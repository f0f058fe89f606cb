package io.locksmith.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.Grant;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.QueuedAcquirer;
import io.locksmith.testing.TcpProxy;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The SPI as the core sees it: what a grant tells about its lease, how a ticket fails, what abandon removes. */
class EtcdBackendSpiTest {

    private static final Duration LEASE = Duration.ofSeconds(2);

    private static TestServer server;
    private static Client admin;

    @BeforeAll
    static void connect() {
        server = TestServers.etcd();
        admin = Client.builder()
                .endpoints("http://" + server.host() + ":" + server.port())
                .build();
    }

    @AfterAll
    static void disconnect() {
        admin.close();
    }

    @Test
    void aQueuedGrantsDeadlineFromItsConfirmationEndsNoLaterThanTheServerExpiresItsLease() throws Exception {
        try (TcpProxy proxy = new TcpProxy(server.host(), server.port());
                Opened holder = open(server.host() + ":" + server.port());
                Opened waiter = open(proxy.address())) {
            AcquireRequest first = request("holder");
            Grant held = (Grant) holder.backend().tryAcquire(first);
            QueuedAcquirer.Ticket ticket =
                    waiter.backend().queue().orElseThrow().enqueue(request("waiter"));
            // the waiter queues across several keep-alives of its lease before the holder leaves
            CompletableFuture<Long> expired = deletionOf(new EtcdKeys("queued-grant").own("confirmed", "waiter"));
            TimeUnit.MILLISECONDS.sleep(LEASE.toMillis()); // time is the subject: a grant long after its put
            holder.backend().release(HeldLease.of(first, held));
            Grant grant = ticket.granted().get(10, TimeUnit.SECONDS);
            long arrived = System.nanoTime();
            proxy.cut(); // the waiter's client stops: nothing keeps its lease alive from now on

            assertThat(grant.confirmedAt())
                    .as("[etcd] a queued grant says when its lease was last confirmed")
                    .isPresent();
            long confirmedAt = grant.confirmedAt().getAsLong();
            assertThat(arrived - confirmedAt)
                    .as("[etcd] a queued grant's confirmation is a send before its arrival")
                    .isNotNegative();
            long serverExpiry = expired.get(20, TimeUnit.SECONDS);
            assertThat(serverExpiry - (confirmedAt + LEASE.toNanos()))
                    .as("[etcd] lease by the server's clock: the grant's local deadline, counted from its confirmation,"
                            + " ends no later than the server expires the lease (ns of margin)")
                    .isNotNegative();
            proxy.restore();
        }
    }

    @Test
    void aQueueEntryWhosePutGotNoAnswerIsATicketThatFailsCleanlyAndLeavesNoKey() throws Exception {
        try (Opened opened = open(server.host() + ":" + server.port())) {
            LockBackend waiter = opened.backend();
            // the lease is granted first, so the only call left to hang is the entry's put
            waiter.tryAcquire(AcquireRequest.of("unanswered-warmup", "unanswered-warmup", "w0", LEASE));
            QueuedAcquirer.Ticket ticket;
            server.pause(); // requests reach the member; no answer comes back until it resumes
            try {
                ticket = waiter.queue().orElseThrow().enqueue(request("unanswered", "waiter"));
                assertThat(ticket.granted())
                        .as("[etcd] a queued wait whose put got no answer fails its ticket")
                        .failsWithin(Duration.ofSeconds(15))
                        .withThrowableThat()
                        .havingCause()
                        .isInstanceOf(LockBackendException.class)
                        .withMessageContaining("'unanswered'");
            } finally {
                server.resume();
            }
            ticket.cancel();
            String prefix =
                    new EtcdKeys("queued-grant").lockPrefix("unanswered").toString();
            await("[etcd] a failed ticket leaves no key behind (the put may have taken effect)")
                    .atMost(Duration.ofSeconds(15))
                    .until(() -> admin.getKVClient()
                                    .get(
                                            EtcdKeys.bytes(prefix),
                                            GetOption.builder()
                                                    .isPrefix(true)
                                                    .withCountOnly(true)
                                                    .build())
                                    .get(10, TimeUnit.SECONDS)
                                    .getCount()
                            == 0);
        }
    }

    @Test
    void anAbandonedAttemptThatTookEffectWithoutItsAnswerLeavesTheLockTakeableAtOnce() throws Exception {
        // a lease far longer than the delayed replies, so that its keep-alives' late answers end nothing
        Duration lease = Duration.ofSeconds(30);
        try (TcpProxy proxy = new TcpProxy(server.host(), server.port());
                Opened firstClient = open(proxy.address(), lease);
                Opened secondClient = open(server.host() + ":" + server.port(), lease)) {
            LockBackend first = firstClient.backend();
            LockBackend second = secondClient.backend();
            first.tryAcquire(AcquireRequest.of(
                    "abandoned-warmup", "abandoned-warmup", "f0", lease)); // grants its lease, so only the put is left
            AcquireRequest unanswered = AcquireRequest.of("abandoned", "abandoned", "first", lease);
            // the put reaches etcd at once; its answer comes 1 s after the 2 s timeout (and the delete's after it)
            proxy.delayReplies(Duration.ofSeconds(3));
            try {
                assertThatThrownBy(() -> first.tryAcquire(unanswered)).isInstanceOf(LockBackendException.class);
                assertThat(admin.getKVClient()
                                .get(new EtcdKeys("queued-grant").own("abandoned", "first"))
                                .get(10, TimeUnit.SECONDS)
                                .getCount())
                        .as("the unanswered put took effect")
                        .isEqualTo(1);
            } finally {
                proxy.delayReplies(Duration.ZERO);
            }
            // the abandon's own answer queues behind the late one; on a busy machine it can miss the timeout
            await("[etcd] abandoning the unanswered attempt")
                    .atMost(Duration.ofSeconds(15))
                    .ignoreExceptions()
                    .until(() -> {
                        first.abandon(unanswered);
                        return true;
                    });
            assertThat(second.tryAcquire(AcquireRequest.of("abandoned", "abandoned", "second", lease)))
                    .as("[etcd] an abandoned attempt leaves the lock takeable at once, not after a lease")
                    .isInstanceOf(Grant.class);
        }
    }

    /** A client and its backend, driven here directly: the core holds none of the grants made through it. */
    private record Opened(LockClient client, LockBackend backend) implements AutoCloseable {
        @Override
        public void close() {
            client.close();
        }
    }

    private static Opened open(String address) {
        return open(address, LEASE);
    }

    // on a saturated machine a first connection has taken over the 2 s timeout: opening is retried
    private static Opened open(String address, Duration lease) {
        LockOptions options = LockOptions.builder().lease(lease).build();
        String uri = "etcd://" + address + "?timeout=2s&namespace=queued-grant";
        AtomicReference<Opened> opened = new AtomicReference<>();
        await("[etcd] opening a backend on " + address)
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> {
                    AtomicReference<LockBackend> backend = new AtomicReference<>();
                    LockClient client = LockClient.open(uri, options, b -> {
                        backend.set(b);
                        return b;
                    });
                    return opened.compareAndSet(null, new Opened(client, backend.get()));
                });
        return opened.get();
    }

    private static AcquireRequest request(String owner) {
        return request("confirmed", owner);
    }

    private static AcquireRequest request(String name, String owner) {
        return AcquireRequest.of(name, name, owner, LEASE);
    }

    /** @return completed with the {@link System#nanoTime()} at which the admin client saw the key deleted */
    private static CompletableFuture<Long> deletionOf(ByteSequence key) {
        CompletableFuture<Long> deleted = new CompletableFuture<>();
        Watch.Watcher w = admin.getWatchClient()
                .watch(key, WatchOption.builder().withNoPut(true).build(), r -> {
                    for (WatchEvent e : r.getEvents()) {
                        if (e.getEventType() == WatchEvent.EventType.DELETE) {
                            deleted.complete(System.nanoTime());
                        }
                    }
                });
        deleted.whenComplete((t, e) -> w.close());
        return deleted;
    }
}
