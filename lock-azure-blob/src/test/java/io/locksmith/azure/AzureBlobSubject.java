package io.locksmith.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.LockBackend;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.Faults;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.TcpProxy;
import io.locksmith.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Azurite as the kit sees it: each client talks through a proxy of its own, which the
 * connection hooks cut and the reply-delay hook slows; removing a lock's state breaks its lease with an admin client and keeps
 * the blob, so the fencing counter in its metadata stays.
 */
final class AzureBlobSubject implements TckSubject {

    static final String CONTAINER = "tck";

    private final TestServer server;
    private final BlobContainerClient admin;
    private final Map<LockClient, TcpProxy> proxies = new ConcurrentHashMap<>();

    AzureBlobSubject(TestServer server) {
        this.server = server;
        this.admin = Azurite.container(server, CONTAINER);
    }

    @Override
    public String name() {
        return "azure-blob";
    }

    @Override
    public LockClient newClient(LockOptions options) {
        TcpProxy proxy;
        try {
            proxy = new TcpProxy(server.host(), server.port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String uri = "azblob:" + Azurite.throughPort(server, proxy.port()) + "?container=" + CONTAINER + "&timeout=2s";
        try {
            LockClient client = LockClient.open(uri, options, backend -> new ProxiedBackend(backend, proxy));
            proxies.put(client, proxy); // a closed client's entry stays: the map is only read while it is open
            return client;
        } catch (RuntimeException e) {
            proxy.close();
            throw e;
        }
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder().minimumLease(Duration.ofSeconds(15)).testLease(Duration.ofSeconds(15))
                .nativeWakeUp(false).fifo(false)
                // leases are the service's; and Azurite 3.37 reads every lease back as expired after
                // a restart (docs/backends/azure-blob.md), which the real service does not
                .lacks(Fault.SKEW_WALL_CLOCK, Fault.RESTART_SERVER)
                .build();
    }

    @Override
    public Faults faults() {
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                try {
                    new BlobLeaseClientBuilder().blobClient(admin.getBlobClient(BlobNames.blob(key))).buildClient()
                            .breakLeaseWithResponse(0, null, Duration.ofSeconds(10), null);
                } catch (BlobStorageException e) {
                    if (e.getStatusCode() != 409 && e.getStatusCode() != 404) {
                        throw e; // 409: no lease to break, 404: no blob; either way no state is left
                    }
                }
            }

            @Override
            public void cutConnection(LockClient client) {
                proxies.get(client).cut();
            }

            @Override
            public void restoreConnection(LockClient client) {
                proxies.get(client).restore();
            }

            // No restartServer(): Azurite (3.37) cannot stand in for a restart of the service.
            // It saves its state as JSON and reads each lease's expiry time back as a string,
            // which its lease logic then compares with a Date: every lease held before the
            // restart reads as expired after it, so another client is granted at once while the
            // holder still counts its lease. The real service keeps leases across its own
            // restarts. What a restart does keep (blobs, the fencing counter) is tested in
            // AzureBlobBackendTest with Azurite.restartKeepingState.

            @Override
            public void delayReplies(LockClient client, Duration delay) {
                proxies.get(client).delayReplies(delay);
            }
        };
    }

    @Override
    public void close() {
        proxies.values().forEach(TcpProxy::close);
    }

    /** The backend of one kit client, which closes that client's proxy when it closes. */
    private static final class ProxiedBackend extends ForwardingLockBackend {

        private final TcpProxy proxy;

        ProxiedBackend(LockBackend backend, TcpProxy proxy) {
            super(backend);
            this.proxy = proxy;
        }

        @Override
        public void close() {
            try {
                super.close();
            } finally {
                proxy.close();
            }
        }
    }
}
