package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.HttpClient;
import com.azure.core.util.HttpClientOptions;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobContainerItem;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

class AzuriteServerTest extends ServerContract {

    private static final AtomicInteger CONTAINERS = new AtomicInteger();

    @Override
    TestServer server() {
        return TestServers.azurite();
    }

    @Override
    String uriPrefix() {
        return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;";
    }

    @Override
    void ping(TestServer server) {
        HttpClientOptions timeouts = new HttpClientOptions()
                .setConnectTimeout(Duration.ofSeconds(2))
                .setResponseTimeout(Duration.ofSeconds(3))
                .setReadTimeout(Duration.ofSeconds(3));
        BlobServiceClient blobs = new BlobServiceClientBuilder()
                .connectionString(server.uri())
                .httpClient(HttpClient.createDefault(timeouts))
                .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, 4, null, null, null))
                .buildClient();
        String name = "selftest-" + CONTAINERS.incrementAndGet();
        blobs.createBlobContainerIfNotExists(name);
        assertThat(blobs.listBlobContainers())
                .extracting(BlobContainerItem::getName)
                .contains(name);
    }
}
