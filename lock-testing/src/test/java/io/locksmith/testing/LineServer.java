package io.locksmith.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A lock server over TCP, one text line per request, for testing {@link ProxiedSubject} with no
 * server binary: each key's owner, token and expiry by the server's monotonic clock, and a fence
 * counter per key that outlives release, removal and {@link #restart()} (its "disk"). A
 * connection may log in first; the only password it accepts is {@link #PASSWORD}.
 *
 * <pre>
 * AUTH password            OK | DENIED
 * ACQUIRE key owner ms     GRANT token | HELD remaining-ms
 * RENEW key owner ms       OK | NO
 * RELEASE key owner        OK | NO
 * DEL key                  OK
 * </pre>
 *
 * Keys and owners are percent-encoded (URLEncoder). A thread per connection: test code.
 */
final class LineServer implements TestServer {

    static final String PASSWORD = "kit-line-s3cret";

    private record Entry(String owner, long token, long expiresAt) {}

    private final Map<String, Entry> entries = new HashMap<>();
    private final Map<String, Long> fences = new HashMap<>();
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final int port;
    private volatile ServerSocket listener;
    private volatile Thread acceptor;

    LineServer() {
        // a port the kernel never hands out by itself (FreePorts), so that a restart can bind it
        // again: a port 0 bind gets an ephemeral one, which another JVM's outgoing connection may
        // hold as its local port while the server is down
        this.port = FreePorts.next();
        this.listener = listen(port);
        accept(listener);
    }

    private static ServerSocket listen(int port) {
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("the line server cannot listen on port " + port, e);
        }
    }

    private void accept(ServerSocket on) {
        Thread t = acceptor = new Thread(
                () -> {
                    while (!on.isClosed()) {
                        try {
                            Socket s = on.accept();
                            connections.add(s);
                            Thread serve = new Thread(() -> serve(s), "line-server-connection");
                            serve.setDaemon(true);
                            serve.start();
                        } catch (IOException e) {
                            return; // closed
                        }
                    }
                },
                "line-server-" + on.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    private void serve(Socket s) {
        try (s;
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                out.println(answer(line.split(" ")));
            }
        } catch (IOException e) {
            // the connection ended
        } finally {
            connections.remove(s);
        }
    }

    private synchronized String answer(String[] r) {
        long now = System.nanoTime();
        Entry e = r.length > 1 ? entries.get(r[1]) : null;
        boolean live = e != null && e.expiresAt - now > 0;
        switch (r[0]) {
            case "AUTH":
                return r[1].equals(PASSWORD) ? "OK" : "DENIED";
            case "ACQUIRE":
                if (live && !e.owner.equals(r[2])) {
                    return "HELD " + (e.expiresAt - now) / 1_000_000;
                }
                long token = live ? e.token : fences.merge(r[1], 1L, Long::sum);
                entries.put(r[1], new Entry(r[2], token, now + Long.parseLong(r[3]) * 1_000_000));
                return "GRANT " + token;
            case "RENEW":
                if (!live || !e.owner.equals(r[2])) {
                    return "NO";
                }
                entries.put(r[1], new Entry(r[2], e.token, now + Long.parseLong(r[3]) * 1_000_000));
                return "OK";
            case "RELEASE":
                if (e == null || !e.owner.equals(r[2])) {
                    return "NO";
                }
                entries.remove(r[1]);
                return live ? "OK" : "NO";
            case "DEL":
                entries.remove(r[1]);
                return "OK";
            default:
                return "ERR unknown request";
        }
    }

    @Override
    public Backend backend() {
        throw new UnsupportedOperationException("the line server is a test's own, of no backend");
    }

    @Override
    public String uri() {
        return "line://" + host() + ":" + port;
    }

    @Override
    public String host() {
        return "127.0.0.1";
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String version() {
        return "1";
    }

    @Override
    public boolean controllable() {
        return true;
    }

    /** Stops listening and drops every connection; the locks stay, as on a server's disk. */
    @Override
    public void kill() {
        try {
            listener.close();
        } catch (IOException e) {
            // already closed
        }
        // a socket closed while a thread is blocked in its accept() is closed for good only once
        // that thread has left it; a restart that binds the port before then finds it in use
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (acceptor.isAlive()) {
            throw new IllegalStateException("the line server's accepting thread did not stop in 30 s");
        }
        for (Socket s : connections) {
            try {
                s.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }

    @Override
    public void pause() {
        throw new UnsupportedOperationException("the line server cannot pause");
    }

    @Override
    public void resume() {}

    @Override
    public void restart() {
        kill();
        listener = listen(port);
        accept(listener);
    }
}
