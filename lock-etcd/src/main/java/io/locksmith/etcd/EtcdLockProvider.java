package io.locksmith.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendAddress;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import io.locksmith.spi.Secret;
import java.util.Locale;
import java.util.Optional;
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
    public LockBackend open(BackendContext context) {
        EtcdSettings settings = EtcdSettings.of(context);
        Client client = build(context, settings);
        return connect(client, true, context.redactedLocation(), settings, context);
    }

    /** Checks that the cluster answers; a failure closes an owned client and names the cluster, never the password. */
    static EtcdBackend connect(
            Client client, boolean owned, String description, EtcdSettings settings, BackendContext context) {
        EtcdBackend backend = new EtcdBackend(
                client,
                owned,
                new EtcdKeys(settings.namespace()),
                new EtcdCalls(description, settings.timeout()),
                context);
        try {
            return backend.start();
        } catch (RuntimeException e) {
            backend.close();
            // the cause says why (gRPC's status); a wait that timed out has no message of its own
            String cause = e.getCause() instanceof java.util.concurrent.TimeoutException
                    ? "no answer within " + settings.timeout().toMillis()
                            + " ms (are the endpoints up, and is a quorum of members?)"
                    : EtcdCalls.message(e.getCause() != null ? e.getCause() : e);
            String lower = cause.toLowerCase(Locale.ROOT);
            if (lower.contains("authentication failed")
                    || lower.contains("invalid user")
                    || lower.contains("user name")
                    || lower.contains("permission denied")
                    || lower.contains("invalid auth token")) {
                throw new LockConfigurationException("authentication to " + description + " failed: " + cause, e);
            }
            if (hasCause(e, SSLException.class) || lower.contains("ssl") || lower.contains("tls")) {
                throw new LockConfigurationException(
                        "the TLS handshake with " + description + " failed: " + cause
                                + " (check etcds:// against the server, and the ca-file, cert-file and key-file options)",
                        e);
            }
            throw new LockBackendException("cannot connect to " + description + ": " + cause, e);
        }
    }

    private static Client build(BackendContext context, EtcdSettings settings) {
        BackendAddress address = address(context);
        Optional<String> user = once(context, "user", context.option("user"), address.user());
        Optional<Secret> password = once(context, "password", context.secretOption("password"), address.password());
        if (user.isPresent() != password.isPresent()) {
            throw new LockConfigurationException(
                    "etcd authentication needs both a user and a password (" + context.redactedLocation() + ")");
        }
        String http = "etcds".equals(context.scheme()) ? "https://" : "http://";
        String[] endpoints = address.hosts().stream()
                .map(h -> http + new BackendAddress.HostPort(h.host(), h.portOr(DEFAULT_PORT)))
                .toArray(String[]::new);
        ClientBuilder builder = Client.builder()
                .endpoints(endpoints)
                .connectTimeout(settings.timeout())
                .retryMaxDuration(settings.timeout());
        if (user.isPresent()) {
            builder.user(EtcdKeys.bytes(user.get()))
                    .password(EtcdKeys.bytes(password.get().reveal()));
        }
        if ("etcds".equals(context.scheme())) {
            try {
                builder.sslContext(ssl -> {
                    if (settings.caFile() != null) {
                        ssl.trustManager(settings.caFile().toFile());
                    }
                    if (settings.certFile() != null) {
                        ssl.keyManager(
                                settings.certFile().toFile(), settings.keyFile().toFile());
                    }
                });
            } catch (SSLException | IllegalArgumentException e) {
                throw new LockConfigurationException(
                        "the TLS settings of " + context.redactedLocation() + " are unusable: " + EtcdCalls.message(e),
                        e);
            }
        }
        try {
            return builder.build();
        } catch (RuntimeException e) {
            throw new LockConfigurationException(
                    "cannot set up a client for " + context.redactedLocation() + ": " + EtcdCalls.message(e), e);
        }
    }

    /** The context's one parser, with the form of an etcd URI added to its error. */
    private static BackendAddress address(BackendContext context) {
        try {
            return context.address();
        } catch (LockConfigurationException e) {
            throw new LockConfigurationException(
                    e.getMessage() + " (expected an etcd URI: " + "etcd://[user:password@]host1:2379[,host2:2379,...])",
                    e);
        }
    }

    private static <T> Optional<T> once(
            BackendContext context, String option, Optional<T> fromOption, Optional<T> fromUri) {
        if (fromOption.isPresent() && fromUri.isPresent()) {
            throw new LockConfigurationException("the " + option + " is given both in the URI and as the option '"
                    + option + "' (" + context.redactedLocation() + "); give it once");
        }
        return fromOption.isPresent() ? fromOption : fromUri;
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
