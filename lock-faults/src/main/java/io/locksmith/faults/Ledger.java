package io.locksmith.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The fenced resource the workers write to: a loopback TCP server that accepts a write only with a
 * token greater than every token it has accepted, the way a database row guarded by
 * {@code WHERE fence < :token} would. A stale holder's late write is therefore refused whatever
 * its timing, and an accepted write with a token out of grant order is the checker's evidence that
 * tokens disagreed with grants.
 *
 * <p>Protocol, one line each way: {@code WRITE w token} → {@code ACCEPTED} or
 * {@code REJECTED highest}. Each decision is logged ({@code ACCEPT w token},
 * {@code REJECT w token highest}) before it is answered, under the same lock that makes it, so the
 * history shows decisions in the order they were taken. One thread per connection: a run has a
 * handful of workers.
 */
public final class Ledger implements AutoCloseable {

    private final ServerSocket server;
    private final EventLog log;
    private final Thread acceptor;
    private long highest = Long.MIN_VALUE;
    private volatile boolean closed;

    private Ledger(ServerSocket server, EventLog log) {
        this.server = server;
        this.log = log;
        this.acceptor = new Thread(this::acceptAll, "ledger-accept");
        this.acceptor.setDaemon(true);
    }

    /**
     * Starts a ledger on a free loopback port.
     *
     * @param history the ledger's history file
     * @return the running ledger
     * @throws IOException if no port can be bound
     */
    public static Ledger start(Path history) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Ledger ledger = new Ledger(server, new EventLog(history, Event.LEDGER));
        ledger.acceptor.start();
        return ledger;
    }

    /** @return the port the ledger listens on, on the loopback address */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * Decides one write.
     *
     * @param worker who writes
     * @param token  its fencing token
     * @return whether it was accepted, and the highest token accepted so far
     */
    synchronized LedgerClient.Answer write(String worker, long token) {
        if (token > highest) {
            highest = token;
            log.write("ACCEPT", worker, token);
            return new LedgerClient.Answer(true, token);
        }
        log.write("REJECT", worker, token, highest);
        return new LedgerClient.Answer(false, highest);
    }

    static LedgerClient.Answer parseAnswer(String reply) {
        String[] parts = reply.trim().split(" ");
        if (parts.length == 1 && parts[0].equals("ACCEPTED")) {
            return new LedgerClient.Answer(true, Long.MIN_VALUE);
        }
        if (parts.length == 2 && parts[0].equals("REJECTED")) {
            return new LedgerClient.Answer(false, Long.parseLong(parts[1]));
        }
        throw new IllegalStateException("not a ledger answer: '" + reply + "'");
    }

    private void acceptAll() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            Thread t = new Thread(() -> serve(s), "ledger-" + s.getPort());
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket s) {
        try (s;
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                OutputStream out = s.getOutputStream()) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] parts = line.trim().split(" ");
                String reply;
                if (parts.length == 3 && parts[0].equals("WRITE")) {
                    LedgerClient.Answer a = write(parts[1], Long.parseLong(parts[2]));
                    reply = a.accepted() ? "ACCEPTED" : "REJECTED " + a.highest();
                } else {
                    reply = "ERROR expected WRITE w token";
                }
                out.write((reply + "\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (SocketException e) {
            // a killed worker's connection
        } catch (IOException | NumberFormatException | UncheckedIOException e) {
            // a worker that sends garbage loses its connection; it logs no ACCEPTED for it
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // nothing to keep
        }
        log.close();
    }
}
