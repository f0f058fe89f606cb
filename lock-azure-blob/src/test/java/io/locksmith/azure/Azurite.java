package io.locksmith.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import io.locksmith.testing.TestServer;
import java.time.Duration;

/** Helpers for tests against Azurite: connection strings through a proxy, and an admin client. */
final class Azurite {

    private Azurite() {}

    /** @return Azurite's connection string with its blob endpoint moved to {@code port} */
    static String throughPort(TestServer server, int port) {
        return server.uri().replace(":" + server.port() + "/", ":" + port + "/");
    }

    /** @return the development account's key, read from the connection string the fixture gives */
    static String accountKey(TestServer server) {
        for (String part : server.uri().split(";")) {
            if (part.startsWith("AccountKey=")) {
                return part.substring("AccountKey=".length());
            }
        }
        throw new IllegalStateException("the Azurite connection string has no AccountKey");
    }

    /** @return a synchronous service client with the account key, for faults and checks */
    static BlobServiceClient admin(TestServer server) {
        return new BlobServiceClientBuilder()
                .connectionString(server.uri())
                .httpClient(io.locksmith.azure.AzureBlobAddress.httpClient(Duration.ofSeconds(10)))
                .buildClient();
    }

    /**
     * Restarts Azurite keeping everything it acknowledged, as a restart of the real service would.
     * Azurite writes its state to its --location every 5 s (Loki's autosave) and on SIGTERM, while
     * {@link TestServer#restart()} SIGKILLs it and so can lose the last seconds of leases and
     * metadata. So Azurite is stopped with SIGTERM first (it saves and exits), then restarted on
     * the same port and location.
     */
    static void restartKeepingState(TestServer server) {
        String port = "--blobPort " + server.port() + " ";
        // the node process itself, not the watchdog shell above it (which ignores SIGTERM)
        ProcessHandle.current()
                .descendants()
                .filter(p -> p.info()
                        .command()
                        .map(c -> c.endsWith("node") || c.endsWith("nodejs"))
                        .orElse(false))
                .filter(p -> p.info()
                        .commandLine()
                        .map(c -> c.contains("azurite") && c.contains(port))
                        .orElse(false))
                .forEach(p -> {
                    p.destroy();
                    try {
                        p.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException(
                                "Azurite on port " + server.port() + " did not stop on SIGTERM", e);
                    }
                });
        server.restart();
    }

    static BlobContainerClient container(TestServer server, String name) {
        BlobContainerClient c = admin(server).getBlobContainerClient(name);
        c.createIfNotExists();
        return c;
    }

    /** @return a backend on the container {@code name}, opened as the provider opens one, with the default settings */
    static AzureBlobBackend backend(TestServer server, String name) {
        return AzureBlobBackend.open(
                new BlobContainerClientBuilder()
                        .connectionString(server.uri())
                        .containerName(name)
                        .buildAsyncClient(),
                "azurite",
                AzureBlobSettings.DEFAULTS);
    }
}
