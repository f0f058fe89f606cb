package io.locksmith.etcd;

import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendContext;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The etcd backend's own options.
 *
 * @param timeout the bound on connecting and on every call
 * @param namespace the first segments of every key the backend writes
 * @param caFile PEM certificates to trust for {@code etcds://}, or null for the JVM's default trust
 * @param certFile a PEM client certificate for {@code etcds://}, or null
 * @param keyFile the client certificate's PKCS#8 PEM key, or null
 */
record EtcdSettings(Duration timeout, String namespace, Path caFile, Path certFile, Path keyFile) {

    static final EtcdSettings DEFAULTS =
            new EtcdSettings(Duration.ofSeconds(5), EtcdKeys.DEFAULT_NAMESPACE, null, null, null);

    static EtcdSettings of(BackendContext context) {
        Duration timeout = context.durationOption("timeout", DEFAULTS.timeout());
        String namespace = context.option("namespace").orElse(EtcdKeys.DEFAULT_NAMESPACE);
        if (!EtcdKeys.valid(namespace)) {
            throw context.invalid(
                    "namespace", namespace, "segments of letters, digits, '.', '_' or '-' separated by '/'");
        }
        Path ca = context.fileOption("ca-file").orElse(null);
        Path cert = context.fileOption("cert-file").orElse(null);
        Path key = context.fileOption("key-file").orElse(null);
        if ((cert == null) != (key == null)) {
            throw new LockConfigurationException("options 'cert-file' and 'key-file' of " + context.redactedLocation()
                    + " go together: give both or neither");
        }
        if ((ca != null || cert != null) && !"etcds".equals(context.scheme())) {
            throw new LockConfigurationException("options 'ca-file', 'cert-file' and 'key-file' need TLS: use etcds://"
                    + " instead of " + context.redactedLocation());
        }
        return new EtcdSettings(timeout, namespace, ca, cert, key);
    }
}
