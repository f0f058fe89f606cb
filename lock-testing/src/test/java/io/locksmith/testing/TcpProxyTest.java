package io.locksmith.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy against a loopback echo server: bytes pass, a cut refuses, a delay holds replies back in order. */
class TcpProxyTest {

    private ServerSocket echo;
    private TcpProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::serve, "echo");
        t.setDaemon(true);
        t.start();
        proxy = new TcpProxy("127.0.0.1", echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    private void serve() {
        while (!echo.isClosed()) {
            try {
                Socket s = echo.accept();
                Thread t = new Thread(() -> {
                    try (s;
                            InputStream in = s.getInputStream();
                            OutputStream out = s.getOutputStream()) {
                        in.transferTo(out);
                    } catch (IOException e) {
                        // the test closed it
                    }
                });
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private static byte[] roundTrip(Socket s, byte[] request) throws IOException {
        s.getOutputStream().write(request);
        s.getOutputStream().flush();
        return s.getInputStream().readNBytes(request.length);
    }

    @Test
    void delayedRepliesArriveLateAndInOrder() throws IOException {
        try (Socket s = new Socket("127.0.0.1", proxy.port())) {
            s.setSoTimeout(10_000);
            assertArrayEquals(
                    new byte[] {1, 2}, roundTrip(s, new byte[] {1, 2}), "tcp-proxy: bytes must pass unchanged");
            proxy.delayReplies(Duration.ofMillis(300));
            long sent = System.nanoTime();
            s.getOutputStream().write(new byte[] {3});
            s.getOutputStream().write(new byte[] {4});
            s.getOutputStream().write(new byte[] {5});
            byte[] got = s.getInputStream().readNBytes(3);
            long took = System.nanoTime() - sent;
            proxy.delayReplies(Duration.ZERO);
            assertArrayEquals(new byte[] {3, 4, 5}, got, "tcp-proxy: held-back replies must keep their order");
            assertTrue(
                    took >= TimeUnit.MILLISECONDS.toNanos(300),
                    "tcp-proxy: a reply delayed by 300 ms arrived after " + took / 1_000_000 + " ms");
            assertArrayEquals(
                    new byte[] {6}, roundTrip(s, new byte[] {6}), "tcp-proxy: after the delay, bytes pass again");
        }
    }

    @Test
    void aCutClosesConnectionsUntilRestored() throws IOException {
        try (Socket s = new Socket("127.0.0.1", proxy.port())) {
            s.setSoTimeout(10_000);
            proxy.cut();
            assertEquals(-1, s.getInputStream().read(), "tcp-proxy: a cut must close the open connection");
        }
        proxy.restore();
        try (Socket s = new Socket("127.0.0.1", proxy.port())) {
            s.setSoTimeout(10_000);
            assertArrayEquals(
                    new byte[] {7}, roundTrip(s, new byte[] {7}), "tcp-proxy: after restore, connections work");
        }
    }

    @Test
    void aConnectionToADownServerIsClosedNotLeftOpen() throws IOException {
        try (RefusingPort hole = new RefusingPort()) {
            try (TcpProxy down = new TcpProxy("127.0.0.1", hole.port());
                    Socket s = new Socket("127.0.0.1", down.port())) {
                s.setSoTimeout(10_000);
                assertEquals(
                        -1, s.getInputStream().read(), "tcp-proxy: with the server down, a connection must be closed");
            }
        }
    }
}
