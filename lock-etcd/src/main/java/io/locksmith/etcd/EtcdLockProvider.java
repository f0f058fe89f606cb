package io.locksmith.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendConfig;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.net.ssl.SSLException;

/**
 * Opens etcd URIs: {@code etcd://[user:password@]host1:2379[,host2:2379,...]} and {@code etcds://}
 * (TLS).
 *
 * <p>Options: {@code timeout} (connecting and every call; default 5s), {@code namespace} (the
 * first segments of every key; default {@code locksmith}), {@code user} and {@code password}
 * (instead of the URI's user-info), and for {@code etcds://} {@code ca-file} (PEM certificates to
 * trust; default: the JVM's trust store), {@code cert-file} and {@code key-file} (a client
 * certificate and its PKCS#8 key).
 */
public final class EtcdLockProvider implements LockProvider {

    private static final int DEFAULT_PORT = 2379;

    /** Creates the provider; {@link java.util.ServiceLoader} does this. */
    public EtcdLockProvider() {}

    @Override
    public String name() {
        return "etcd";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("etcd", "etcds");
    }

    @Override
    public Set<String> optionNames() {
        return Set.of("timeout", "namespace", "user", "password", "ca-file", "cert-file", "key-file");
    }

    @Override
    public LockBackend open(BackendConfig config) {
        EtcdSettings settings = EtcdSettings.of(config);
        String description = config.redactedLocation();
        Client client = build(config, settings);
        return connect(client, true, description, settings, config.events());
    }

    /** Checks that the cluster answers; a failure closes an owned client and names the cluster, never the password. */
    static EtcdBackend connect(Client client, boolean owned, String description, EtcdSettings settings,
            BackendEvents events) {
        EtcdBackend backend = new EtcdBackend(client, owned, new EtcdKeys(settings.namespace()),
                new EtcdCalls(description, settings.timeout()), events);
        try {
            return backend.start();
        } catch (RuntimeException e) {
            backend.close();
            // the cause says why (gRPC's status); a wait that timed out has no message of its own
            String cause = e.getCause() instanceof java.util.concurrent.TimeoutException
                    ? "no answer within " + settings.timeout().toMillis() + " ms (are the endpoints up, and is a quorum of members?)"
                    : EtcdCalls.message(e.getCause() != null ? e.getCause() : e);
            String lower = cause.toLowerCase(Locale.ROOT);
            if (lower.contains("authentication failed") || lower.contains("invalid user") || lower.contains("user name")
                    || lower.contains("permission denied") || lower.contains("invalid auth token")) {
                throw new LockConfigurationException("authentication to " + description + " failed: " + cause, e);
            }
            if (hasCause(e, SSLException.class) || lower.contains("ssl") || lower.contains("tls")) {
                throw new LockConfigurationException("the TLS handshake with " + description + " failed: " + cause
                        + " (check etcds:// against the server, and the ca-file, cert-file and key-file options)", e);
            }
            throw new LockBackendException("cannot connect to " + description + ": " + cause, e);
        }
    }

    private static Client build(BackendConfig config, EtcdSettings settings) {
        Endpoints endpoints = Endpoints.parse(config);
        String user = either(config, "user", endpoints.user);
        String password = either(config, "password", endpoints.password);
        if ((user == null) != (password == null)) {
            throw new LockConfigurationException("etcd authentication needs both a user and a password ("
                    + config.redactedLocation() + ")");
        }
        ClientBuilder builder = Client.builder().endpoints(endpoints.uris.toArray(String[]::new))
                .connectTimeout(settings.timeout()).retryMaxDuration(settings.timeout());
        if (user != null) {
            builder.user(EtcdKeys.bytes(user)).password(EtcdKeys.bytes(password));
        }
        if ("etcds".equals(config.scheme())) {
            try {
                builder.sslContext(ssl -> {
                    if (settings.caFile() != null) {
                        ssl.trustManager(settings.caFile().toFile());
                    }
                    if (settings.certFile() != null) {
                        ssl.keyManager(settings.certFile().toFile(), settings.keyFile().toFile());
                    }
                });
            } catch (SSLException | IllegalArgumentException e) {
                throw new LockConfigurationException("the TLS settings of " + config.redactedLocation()
                        + " are unusable: " + EtcdCalls.message(e), e);
            }
        }
        try {
            return builder.build();
        } catch (RuntimeException e) {
            throw new LockConfigurationException("cannot set up a client for " + config.redactedLocation() + ": "
                    + EtcdCalls.message(e), e);
        }
    }

    private static String either(BackendConfig config, String option, String fromUri) {
        String fromOption = config.option(option).orElse(null);
        if (fromOption != null && fromUri != null) {
            throw new LockConfigurationException("the " + option + " is given both in the URI and as the option '"
                    + option + "' (" + config.redactedLocation() + "); give it once");
        }
        return fromOption != null ? fromOption : fromUri;
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** The endpoints and the user-info of an etcd URI, which {@link java.net.URI} cannot parse with several hosts. */
    private static final class Endpoints {
        final List<String> uris = new ArrayList<>();
        String user;
        String password;

        static Endpoints parse(BackendConfig config) {
            String location = config.location();
            String rest = location.substring(location.indexOf("://") + 3);
            int end = indexOfAny(rest, "/?#");
            String authority = end < 0 ? rest : rest.substring(0, end);
            Endpoints e = new Endpoints();
            int at = authority.lastIndexOf('@');
            if (at >= 0) {
                String info = authority.substring(0, at);
                int colon = info.indexOf(':');
                e.user = decode(colon < 0 ? info : info.substring(0, colon));
                e.password = colon < 0 ? null : decode(info.substring(colon + 1));
                authority = authority.substring(at + 1);
            }
            String http = "etcds".equals(config.scheme()) ? "https://" : "http://";
            for (String host : authority.split(",", -1)) {
                e.uris.add(http + hostAndPort(config, host.trim()));
            }
            return e;
        }

        private static String hostAndPort(BackendConfig config, String host) {
            if (host.isEmpty()) {
                throw malformed(config, "an empty host");
            }
            int colon = host.lastIndexOf(':');
            if (colon < 0 || host.endsWith("]")) {
                return host + ":" + DEFAULT_PORT;
            }
            String port = host.substring(colon + 1);
            if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535 || colon == 0) {
                throw malformed(config, "a bad port or host in '" + host + "'");
            }
            return host;
        }

        private static LockConfigurationException malformed(BackendConfig config, String what) {
            return new LockConfigurationException("malformed etcd URI '" + config.redactedLocation() + "': " + what
                    + " (expected etcd://[user:password@]host1:2379[,host2:2379,...])");
        }

        private static int indexOfAny(String s, String chars) {
            for (int i = 0; i < s.length(); i++) {
                if (chars.indexOf(s.charAt(i)) >= 0) {
                    return i;
                }
            }
            return -1;
        }

        private static String decode(String s) {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        }
    }
}
