package io.locksmith.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP proxy in front of one server, so a test can cut one client off as a network
 * partition would: {@link #cut()} drops the open connections and refuses new ones until
 * {@link #restore()}; {@link #delayReplies(Duration)} holds back what the server sends, as a slow
 * path back (or a client paused while its replies wait) would. The kit's {@code cutConnection} and
 * {@code delayReplies} fault hooks are built on it.
 *
 * <pre>{@code
 * TcpProxy proxy = new TcpProxy(server.host(), server.port());
 * LockClient client = LockClient.open("etcd://" + proxy.address());
 * proxy.cut();      // the client's calls now fail
 * proxy.restore();
 * }</pre>
 *
 * <p>One selector thread serves every connection: a client with a pool of connections (an HTTP
 * client renewing a thousand leases) must not make the proxy start a thread per connection, since
 * the kit counts the threads that holding many locks starts.
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocketChannel listener;
    private final Selector selector;
    private final InetSocketAddress target;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private volatile boolean refusing;
    private volatile boolean closed;
    private volatile long replyDelayNanos;
    // selector thread only: the server side of each connection, and the replies it holds back
    private final Map<SelectionKey, ArrayDeque<Reply>> held = new HashMap<>();
    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tcp-proxy-clock");
        t.setDaemon(true);
        return t;
    });

    private record Reply(byte[] bytes, long dueNanos) {}

    /**
     * Starts a proxy on a free loopback port.
     *
     * @param targetHost the server's host
     * @param targetPort the server's port
     * @throws IOException if no port can be opened
     */
    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this.target = new InetSocketAddress(targetHost, targetPort);
        this.selector = Selector.open();
        this.listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
        Thread loop = new Thread(this::loop, "tcp-proxy-" + port());
        loop.setDaemon(true);
        loop.start();
    }

    /** @return the proxy's port on the loopback address */
    public int port() {
        return listener.socket().getLocalPort();
    }

    /** @return {@code 127.0.0.1:PORT}, to put in a client's URI in place of the server's address */
    public String address() {
        return "127.0.0.1:" + port();
    }

    /** Closes every open connection and refuses new ones; returns once done. */
    public void cut() {
        refusing = true;
        if (closed) {
            return;
        }
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        tasks.add(() -> {
            for (SelectionKey k : selector.keys()) {
                if (k.channel() instanceof SocketChannel) {
                    closeQuietly(k);
                }
            }
            done.complete(null);
        });
        selector.wakeup();
        try {
            done.get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the proxy did not cut its connections", e);
        }
    }

    /** Accepts connections again; clients reconnect on their own. */
    public void restore() {
        refusing = false;
    }

    /**
     * Holds back every byte the server sends by {@code delay} before the client gets it; requests
     * still reach the server at once. Replies keep their order; {@link Duration#ZERO} ends the
     * delay for what the server sends from then on (what is held back still arrives in order).
     *
     * @param delay how long each reply waits; zero or more
     */
    public void delayReplies(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + delay);
        }
        replyDelayNanos = delay.toNanos();
    }

    private void loop() {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        while (!closed) {
            try {
                selector.select();
                Runnable task;
                while ((task = tasks.poll()) != null) {
                    task.run();
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                    } else if (key.isReadable()) {
                        pump(key, buffer);
                    }
                }
                selector.selectedKeys().clear();
            } catch (java.nio.channels.ClosedSelectorException e) {
                return;
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void accept() throws IOException {
        SocketChannel client = listener.accept();
        if (client == null) {
            return;
        }
        if (refusing) {
            client.close();
            return;
        }
        SocketChannel server;
        try {
            server = SocketChannel.open(target); // loopback: connects at once
        } catch (IOException e) {
            client.close(); // the server is down: refuse, as a dead server's port would, not hang
            return;
        }
        // without TCP_NODELAY, small requests wait for delayed ACKs: tens of milliseconds each
        client.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
        server.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
        client.configureBlocking(false);
        server.configureBlocking(false);
        SelectionKey a = client.register(selector, SelectionKey.OP_READ);
        SelectionKey b = server.register(selector, SelectionKey.OP_READ);
        a.attach(b);
        b.attach(a);
        held.put(b, new ArrayDeque<>());
    }

    private void pump(SelectionKey from, ByteBuffer buffer) {
        SelectionKey to = (SelectionKey) from.attachment();
        try {
            buffer.clear();
            int n = ((SocketChannel) from.channel()).read(buffer);
            if (n < 0) {
                closeQuietly(from);
                return;
            }
            buffer.flip();
            ArrayDeque<Reply> replies = held.get(from);
            long delay = replyDelayNanos;
            if (replies != null && (delay > 0 || !replies.isEmpty())) {
                byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                replies.add(new Reply(bytes, System.nanoTime() + delay));
                if (replies.size() == 1) {
                    flushLater(from, delay);
                }
                return;
            }
            writeAll((SocketChannel) to.channel(), buffer);
        } catch (IOException e) {
            closeQuietly(from);
        }
    }

    private static void writeAll(SocketChannel out, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (out.write(buffer) == 0) {
                Thread.onSpinWait(); // the peer's window is full; loopback drains it at once
            }
        }
    }

    private void flushLater(SelectionKey server, long delayNanos) {
        clock.schedule(
                () -> {
                    tasks.add(() -> flush(server));
                    selector.wakeup();
                },
                delayNanos,
                TimeUnit.NANOSECONDS);
    }

    /** Sends the held-back replies that are due, in order; runs on the selector thread. */
    private void flush(SelectionKey server) {
        ArrayDeque<Reply> replies = held.get(server);
        if (replies == null || !server.isValid()) {
            return;
        }
        SocketChannel out = (SocketChannel) ((SelectionKey) server.attachment()).channel();
        long now = System.nanoTime();
        try {
            while (!replies.isEmpty() && replies.peek().dueNanos() - now <= 0) {
                writeAll(out, ByteBuffer.wrap(replies.poll().bytes()));
            }
        } catch (IOException e) {
            closeQuietly(server);
            return;
        }
        if (!replies.isEmpty()) {
            flushLater(server, Math.max(0, replies.peek().dueNanos() - now));
        }
    }

    /** Closes both sides of a proxied connection. */
    private void closeQuietly(SelectionKey key) {
        SelectionKey peer = (SelectionKey) key.attachment();
        for (SelectionKey k : new SelectionKey[] {key, peer}) {
            if (k != null) {
                held.remove(k);
                k.cancel();
                try {
                    k.channel().close();
                } catch (IOException e) {
                    // already closed
                }
            }
        }
    }

    /** Stops the proxy and closes every connection. */
    @Override
    public void close() {
        closed = true;
        refusing = true;
        clock.shutdownNow();
        try {
            selector.wakeup();
            for (SelectionKey k : selector.keys()) {
                k.channel().close();
            }
            selector.close();
        } catch (IOException | java.nio.channels.ClosedSelectorException e) {
            // already closed
        }
    }
}
