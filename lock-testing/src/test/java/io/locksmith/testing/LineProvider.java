package io.locksmith.testing;

import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendAddress;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import io.locksmith.spi.RenewOutcome;
import io.locksmith.spi.Secret;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Opens {@code line://[user:password@]host:port?timeout=D} on a {@link LineServer}: one socket
 * per client, one request at a time, each bounded by the timeout (default 2 s); a failed call
 * drops the socket and the next one connects again. A test provider for {@link ProxiedSubject}.
 */
public final class LineProvider implements LockProvider {

    /** Creates the provider; {@link java.util.ServiceLoader} does this. */
    public LineProvider() {}

    @Override
    public String name() {
        return "line";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("line");
    }

    @Override
    public Set<String> optionNames() {
        return Set.of("timeout");
    }

    @Override
    public LockBackend open(BackendContext context) {
        Connection c = new Connection(context);
        c.call("connecting"); // connects and logs in, or fails
        return c;
    }

    private static final class Connection implements LockBackend {
        private final BackendContext context;
        private final BackendAddress address;
        private final String description;
        private final Duration timeout;
        private final Optional<Secret> password;
        private Socket socket;
        private BufferedReader in;
        private OutputStream out;

        Connection(BackendContext context) {
            this.context = context;
            this.address = context.address();
            this.description = address.toString();
            this.timeout = context.durationOption("timeout", Duration.ofSeconds(2));
            this.password = address.password();
        }

        @Override
        public String description() {
            return description;
        }

        @Override
        public Duration minimumLease() {
            return Duration.ofMillis(10);
        }

        @Override
        public AcquireResult tryAcquire(AcquireRequest r) {
            String[] a = call("lock '" + r.name() + "'", "ACQUIRE", r.key(), r.owner(), r.lease())
                    .split(" ");
            return a[0].equals("GRANT")
                    ? Grant.of(Long.parseLong(a[1]))
                    : Held.remaining(Duration.ofMillis(Long.parseLong(a[1])));
        }

        @Override
        public List<RenewOutcome> renew(List<HeldLease> leases) {
            List<RenewOutcome> out = new ArrayList<>();
            for (HeldLease l : leases) {
                String a = call("lock '" + l.name() + "'", "RENEW", l.key(), l.owner(), l.lease());
                out.add(a.equals("OK") ? RenewOutcome.RENEWED : RenewOutcome.NOT_OWNED);
            }
            return out;
        }

        @Override
        public boolean release(HeldLease l) {
            return call("lock '" + l.name() + "'", "RELEASE", l.key(), l.owner())
                    .equals("OK");
        }

        /** On a connection of its own: this one may still wait for the given-up attempt's answer. */
        @Override
        public void abandon(AcquireRequest r) {
            try (Connection apart = new Connection(context)) {
                apart.call("lock '" + r.name() + "'", "RELEASE", r.key(), r.owner());
            }
        }

        /** Sends one request (keys and owners percent-encoded, leases in ms) and reads its answer. */
        synchronized String call(String what, Object... request) {
            try {
                if (socket == null) {
                    connect();
                }
                if (request.length == 0) {
                    return "OK";
                }
                StringBuilder line = new StringBuilder();
                for (Object part : request) {
                    String p = part instanceof Duration d
                            ? Long.toString(d.toMillis())
                            : URLEncoder.encode(part.toString(), StandardCharsets.UTF_8);
                    line.append(line.length() == 0 ? "" : " ").append(p);
                }
                return exchange(line.toString());
            } catch (IOException e) {
                drop();
                throw new LockBackendException(description + ": " + what + ": " + e.getMessage(), e);
            }
        }

        private void connect() throws IOException {
            Socket s = new Socket();
            try {
                s.connect(
                        new InetSocketAddress(
                                address.host().host(), address.host().portOr(7000)),
                        (int) timeout.toMillis());
                s.setSoTimeout((int) timeout.toMillis());
                s.setTcpNoDelay(true);
                socket = s;
                in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                out = s.getOutputStream();
            } catch (IOException e) {
                s.close();
                throw e;
            }
            if (password.isPresent()
                    && !exchange("AUTH " + password.get().reveal()).equals("OK")) {
                drop();
                throw new LockConfigurationException("the line server at " + description + " refused the login of "
                        + address.user().orElse("its user"));
            }
        }

        private String exchange(String line) throws IOException {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            String answer = in.readLine();
            if (answer == null) {
                throw new IOException("the server closed the connection");
            }
            return answer;
        }

        private void drop() {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closed already
                }
                socket = null;
            }
        }

        @Override
        public synchronized void close() {
            drop();
        }
    }
}
