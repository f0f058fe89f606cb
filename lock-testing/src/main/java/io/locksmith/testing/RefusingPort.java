package io.locksmith.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A loopback port where no server listens, held for as long as a test needs it: connections to it
 * are refused at once, as to a server that is down. The port is bound (not listening) until
 * {@link #close()}, so no server another test starts meanwhile can take it — unlike a port freed
 * by closing a {@code ServerSocket}, which the kernel may hand out again at any moment.
 *
 * <pre>{@code
 * try (RefusingPort down = new RefusingPort()) {
 *     LockClient.open("redis://127.0.0.1:" + down.port() + "?timeout=2s");   // LockBackendException
 * }
 * }</pre>
 */
public final class RefusingPort implements AutoCloseable {

    private final Socket socket = new Socket();

    /** Reserves a free loopback port without listening on it. */
    public RefusingPort() {
        try {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException("could not reserve a loopback port", e);
        }
    }

    /** @return the reserved port */
    public int port() {
        return socket.getLocalPort();
    }

    /** Frees the port. */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing was sent on it
        }
    }
}
