package io.locksmith.azure;

import com.azure.storage.blob.BlobContainerClient;
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
        return new BlobServiceClientBuilder().connectionString(server.uri())
                .httpClient(io.locksmith.azure.AzureBlobAddress.httpClient(Duration.ofSeconds(10))).buildClient();
    }

    static BlobContainerClient container(TestServer server, String name) {
        BlobContainerClient c = admin(server).getBlobContainerClient(name);
        c.createIfNotExists();
        return c;
    }
}
