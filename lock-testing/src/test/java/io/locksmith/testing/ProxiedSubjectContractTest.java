package io.locksmith.testing;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.LockContract;
import io.locksmith.tck.SecretUri;
import io.locksmith.tck.TckSubject;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The whole kit through {@link ProxiedSubject}, against a {@link LineServer}: every connection
 * hook the base supplies (cut, restore, delayed replies, crash, restart) and the credential rule
 * run over real sockets and proxies, with no server binary. The base's own promises follow.
 */
class ProxiedSubjectContractTest extends LockContract {

    private final LineServer server = new LineServer();

    @Override
    protected TckSubject subject() {
        return new LineSubject(server);
    }

    @AfterAll
    void stopServer() {
        server.kill();
    }

    /** A proxy per client, and the proxy closes with its client. */
    @Test
    void eachClientHasAProxyOfItsOwnThatClosesWithIt() {
        try (LineSubject subject = new LineSubject(server)) {
            LockClient a = subject.newClient(LockOptions.defaults());
            LockClient b = subject.newClient(LockOptions.defaults());
            TcpProxy proxy = subject.proxy(a);
            check(proxy != subject.proxy(b), "two clients must not share a proxy");
            a.lock("proxied-own").acquire(Duration.ZERO).close();
            a.close();
            check(!reachable(proxy), "the proxy must close with its client");
            b.lock("proxied-own").acquire(Duration.ZERO).close();
            b.close();
        }
    }

    /** A stalled client's calls wait for the resume, and fail after the bound without one. */
    @Test
    void aStalledClientsCallsWaitForTheResumeAndFailAfterTheBound() throws Exception {
        try (LineSubject subject = new LineSubject(server);
                LockClient client = subject.newClient(LockOptions.defaults())) {
            subject.stalls(client).stall();
            long start = System.nanoTime();
            boolean failed = false;
            try {
                client.lock("proxied-stall").tryAcquire();
            } catch (io.locksmith.LockBackendException e) {
                failed = true;
            }
            long took = System.nanoTime() - start;
            check(
                    failed && took >= ProxiedSubject.STALL_BOUND.toNanos(),
                    "a stalled call must fail once the bound has passed; failed " + failed + " after "
                            + took / 1_000_000 + " ms");
            var waiting = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> client.lock("proxied-stall").tryAcquire());
            Thread.sleep(200); // the call is held meanwhile: time is the subject
            check(!waiting.isDone(), "a stalled call must wait");
            subject.stalls(client).resume();
            Optional<LockHandle> h = waiting.get(5, java.util.concurrent.TimeUnit.SECONDS);
            check(h.isPresent(), "a call held by a stall must go on once resumed");
            h.get().close();
        }
    }

    private static boolean reachable(TcpProxy proxy) {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", proxy.port())) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static void check(boolean condition, String what) {
        org.junit.jupiter.api.Assertions.assertTrue(condition, "[line] ProxiedSubject: " + what);
    }

    /** The line server as the kit sees it: the base's hooks, and removing a key through a connection of its own. */
    static final class LineSubject extends ProxiedSubject {
        LineSubject(LineServer server) {
            super("line", server, address -> "line://" + address + "?timeout=2s");
        }

        @Override
        public Capabilities capabilities() {
            return Capabilities.builder()
                    .minimumLease(Duration.ofMillis(10))
                    .lacks(Fault.SKEW_WALL_CLOCK) // leases by the server's clock
                    .build();
        }

        @Override
        public Optional<SecretUri> secretUri() {
            String auth = "line://kit:" + LineServer.PASSWORD + "@";
            return Optional.of(new SecretUri(
                    auth + server().host() + ":" + server().port() + "?timeout=2s",
                    LineServer.PASSWORD,
                    auth + unreachableAddress() + "?timeout=2s"));
        }

        @Override
        public void removeLockState(String key) {
            try (java.net.Socket s = new java.net.Socket(server().host(), server().port());
                    var in = new java.io.BufferedReader(new java.io.InputStreamReader(
                            s.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
                s.getOutputStream()
                        .write(("DEL " + java.net.URLEncoder.encode(key, java.nio.charset.StandardCharsets.UTF_8)
                                        + "\n")
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                in.readLine();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("could not remove " + key, e);
            }
        }
    }
}
