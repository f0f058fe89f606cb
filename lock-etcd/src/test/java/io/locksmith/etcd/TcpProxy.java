package io.locksmith.etcd;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A small TCP proxy in front of one server, so a test can cut one client off: {@link #cut()}
 * drops its open connections and refuses new ones until {@link #restore()}.
 */
final class TcpProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean refusing;
    private volatile boolean closed;

    TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "tcp-proxy-" + listener.getLocalPort());
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    void cut() {
        refusing = true;
        for (Socket s : open) {
            closeQuietly(s);
        }
        open.clear();
    }

    void restore() {
        refusing = false;
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                if (refusing) {
                    closeQuietly(client);
                    continue;
                }
                Socket server = new Socket(targetHost, targetPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                open.add(client);
                open.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // a cut or a closed peer: end both sides
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        cut();
        closeQuietly(listener);
    }

    private static void closeQuietly(ServerSocket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
