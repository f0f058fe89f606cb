package io.locksmith.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy in front of one server, so a test can cut one client off: {@link #cut()}
 * closes its connections and refuses new ones (accepts and closes them at once) until
 * {@link #restore()}.
 */
final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;
    private volatile boolean closed;

    TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "proxy-" + listener.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** @return {@code 127.0.0.1:PORT} */
    String address() {
        return "127.0.0.1:" + port();
    }

    void cut() {
        cut = true;
        closeAll();
    }

    void restore() {
        cut = false;
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            if (cut) {
                quietly(client);
                continue;
            }
            try {
                Socket server = new Socket(targetHost, targetPort);
                // without it Nagle and delayed ACKs add ~40 ms to every small request
                server.setTcpNoDelay(true);
                client.setTcpNoDelay(true);
                open.add(client);
                open.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                quietly(client); // the server is down: the client sees a closed connection, as it would
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // either side closed
            } finally {
                quietly(from);
                quietly(to);
            }
        }, "proxy-pump-" + port());
        t.setDaemon(true);
        t.start();
    }

    private void closeAll() {
        for (Socket s : open) {
            quietly(s);
        }
    }

    private void quietly(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        closeAll();
    }
}
