package io.locksmith.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A worker's connection to the {@link Ledger}: one line out, one line back. Not thread-safe; one
 * worker writes at a time.
 */
final class LedgerClient implements AutoCloseable {

    /** Long enough for a busy machine; the ledger answers from memory. */
    private static final int READ_TIMEOUT_MILLIS = 30_000;

    /** The ledger's answer to one write. */
    record Answer(boolean accepted, long highest) {}

    private final int port;
    private Socket socket;
    private BufferedReader in;
    private OutputStream out;

    LedgerClient(int port) {
        this.port = port;
    }

    /**
     * Writes a token, connecting first if need be.
     *
     * @throws UncheckedIOException if the ledger cannot be reached: the run cannot go on without it
     */
    Answer write(String worker, long token) {
        try {
            if (socket == null) {
                socket = new Socket(InetAddress.getLoopbackAddress(), port);
                socket.setSoTimeout(READ_TIMEOUT_MILLIS);
                socket.setTcpNoDelay(true);
                in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
                out = socket.getOutputStream();
            }
            out.write(("WRITE " + worker + " " + token + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String reply = in.readLine();
            if (reply == null) {
                throw new IOException("the ledger closed the connection");
            }
            return Ledger.parseAnswer(reply);
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot write to the ledger on port " + port, e);
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // the connection is gone either way
            }
            socket = null;
        }
    }
}
