package io.locksmith.etcd;

import io.etcd.jetcd.Client;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import java.util.Objects;

/**
 * Lock clients over a jetcd {@link Client} the application already has. The lock client grants
 * its own leases and watches on it and revokes them when closed; the jetcd client stays open.
 *
 * <pre>{@code
 * Client etcd = Client.builder().endpoints("http://etcd1:2379", "http://etcd2:2379").build();
 * try (LockClient locks = EtcdLocks.open(etcd, LockOptions.defaults())) { ... }
 * }</pre>
 */
public final class EtcdLocks {

    private EtcdLocks() {}

    /**
     * Opens a lock client on an existing jetcd client, with keys under the default namespace
     * {@code locksmith} and a 5 s bound on every call.
     *
     * @param client a jetcd client; it is not closed with the lock client
     * @param options the lock options
     * @return a lock client
     * @throws io.locksmith.LockBackendException if the cluster does not answer within 5 s
     */
    public static LockClient open(Client client, LockOptions options) {
        return open(client, options, EtcdKeys.DEFAULT_NAMESPACE);
    }

    /**
     * Opens a lock client on an existing jetcd client, with keys under a namespace of its own.
     *
     * @param client a jetcd client; it is not closed with the lock client
     * @param options the lock options
     * @param namespace segments of letters, digits, {@code . _ -} separated by {@code /}
     * @return a lock client
     * @throws IllegalArgumentException if the namespace is not of that form
     * @throws io.locksmith.LockBackendException if the cluster does not answer within 5 s
     */
    public static LockClient open(Client client, LockOptions options, String namespace) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(namespace, "namespace");
        new EtcdKeys(namespace); // checks it before anything connects
        EtcdSettings settings = new EtcdSettings(EtcdSettings.DEFAULTS.timeout(), namespace, null, null, null);
        return LockClient.of(
                context -> EtcdLockProvider.connect(client, false, "etcd (existing client)", settings, context),
                options);
    }
}
