package io.locksmith.etcd;

import io.locksmith.LockConfigurationException;
import io.locksmith.LockOptions;
import io.locksmith.spi.BackendConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

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

    static final EtcdSettings DEFAULTS = new EtcdSettings(Duration.ofSeconds(5), EtcdKeys.DEFAULT_NAMESPACE,
            null, null, null);

    static EtcdSettings of(BackendConfig config) {
        Duration timeout = config.option("timeout").map(v -> duration(config, v)).orElse(DEFAULTS.timeout());
        String namespace = config.option("namespace").orElse(EtcdKeys.DEFAULT_NAMESPACE);
        if (!EtcdKeys.valid(namespace)) {
            throw new LockConfigurationException("option 'namespace' of " + config.redactedLocation()
                    + " must be segments of letters, digits, '.', '_' or '-' separated by '/', was '" + namespace + "'");
        }
        Path ca = file(config, "ca-file");
        Path cert = file(config, "cert-file");
        Path key = file(config, "key-file");
        if ((cert == null) != (key == null)) {
            throw new LockConfigurationException("options 'cert-file' and 'key-file' of " + config.redactedLocation()
                    + " go together: give both or neither");
        }
        if ((ca != null || cert != null) && !"etcds".equals(config.scheme())) {
            throw new LockConfigurationException("options 'ca-file', 'cert-file' and 'key-file' need TLS: use etcds://"
                    + " instead of " + config.redactedLocation());
        }
        return new EtcdSettings(timeout, namespace, ca, cert, key);
    }

    private static Path file(BackendConfig config, String option) {
        Optional<String> value = config.option(option);
        if (value.isEmpty()) {
            return null;
        }
        Path path = Path.of(value.get());
        if (!Files.isReadable(path)) {
            throw new LockConfigurationException("option '" + option + "' of " + config.redactedLocation()
                    + " names a file that does not exist or cannot be read: " + path);
        }
        return path;
    }

    private static Duration duration(BackendConfig config, String value) {
        try {
            // the same duration syntax as every other option
            return LockOptions.builder().set("lease", value).build().lease();
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException("option 'timeout' of " + config.redactedLocation()
                    + " must be a positive duration such as 500ms or 5s, was '" + value + "'");
        }
    }
}
