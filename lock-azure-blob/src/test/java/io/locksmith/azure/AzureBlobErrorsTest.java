package io.locksmith.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.common.sas.AccountSasPermission;
import com.azure.storage.common.sas.AccountSasResourceType;
import com.azure.storage.common.sas.AccountSasService;
import com.azure.storage.common.sas.AccountSasSignatureValues;
import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.testing.RefusingPort;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The errors users meet: each clear, and none showing a key, a SAS signature or a connection string. */
class AzureBlobErrorsTest {

    private static final String FAKE_KEY = "c2VjcmV0LWtleS12YWx1ZS10aGF0LW11c3Qtbm90LWxlYWs=";
    private static TestServer server;
    private static String endpoint;

    @BeforeAll
    static void start() {
        server = TestServers.azurite();
        endpoint = "azblob://127.0.0.1:" + server.port() + "/devstoreaccount1/";
        Azurite.container(server, "errors");
    }

    @Test
    void aMalformedConnectionStringIsAConfigurationErrorWithoutItsKey() {
        Throwable e =
                failure(() -> LockClient.open("azblob:AccountKey=" + FAKE_KEY + ";NoEndpointHere?container=locks"));
        assertThat(e).isInstanceOf(LockConfigurationException.class).hasMessageContaining("connection string");
        assertNoSecret(e, FAKE_KEY);
        assertThatThrownBy(() -> LockClient.open("azblob:" + server.uri()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("?container=NAME");
    }

    @Test
    void aWrongAccountKeyIsRefusedAtOpen() {
        String wrong = server.uri().replace(Azurite.accountKey(server), FAKE_KEY);
        Throwable e = failure(() -> LockClient.open("azblob:" + wrong + "?container=errors"));
        assertThat(e)
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("403")
                .hasMessageContaining("127.0.0.1:" + server.port());
        assertNoSecret(e, FAKE_KEY);
    }

    @Test
    void anExpiredSasIsRefusedAtOpenWithoutItsSignature() {
        String sas = sas(OffsetDateTime.now().minusHours(1), "sco");
        Throwable e = failure(() -> LockClient.open(endpoint + "errors", Map.of("sas-token", sas)));
        assertThat(e)
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("403")
                .hasMessageContaining("SAS token");
        assertNoSecret(e, signature(sas));
    }

    @Test
    void aValidSasWorksInTheUriWhenPercentEncoded() {
        String sas = sas(OffsetDateTime.now().plusHours(1), "sco");
        String uri = endpoint + "errors?sas-token=" + URLEncoder.encode(sas, StandardCharsets.UTF_8);
        try (LockClient locks = LockClient.open(uri)) {
            locks.lock("sas").acquire(Duration.ZERO).close();
            assertThat(locks.backend() + locks).doesNotContain(signature(sas));
        }
    }

    @Test
    void aMissingContainerWithoutCreatePermissionIsAClearError() {
        String sas = sas(OffsetDateTime.now().plusHours(1), "o"); // blobs only: no container operations
        Throwable e = failure(() -> LockClient.open(endpoint + "never-created", Map.of("sas-token", sas)));
        assertThat(e)
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("container 'never-created' does not exist")
                .hasMessageContaining("may not create it");
        assertNoSecret(e, signature(sas));
    }

    @Test
    void aMissingContainerWithCreationTurnedOffIsAClearError() {
        Throwable e = failure(
                () -> LockClient.open("azblob:" + server.uri() + "?container=not-there&create-container=false"));
        assertThat(e)
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("container 'not-there' does not exist")
                .hasMessageContaining("create-container=false");
        assertNoSecret(e, Azurite.accountKey(server));
    }

    @Test
    void anUnreachableEndpointFailsWithinTheTimeout() throws IOException {
        try (RefusingPort down = new RefusingPort()) { // refused at once, and no server started meanwhile can take it
            int port = down.port();
            String cs = Azurite.throughPort(server, port);
            long start = System.nanoTime();
            Throwable e = failure(() -> LockClient.open("azblob:" + cs + "?container=errors&timeout=2s"));
            assertThat(e)
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("cannot reach")
                    .hasMessageContaining("127.0.0.1:" + port);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertNoSecret(e, Azurite.accountKey(server));
        }
    }

    @Test
    void badAddressesAndOptionsAreRejected() {
        assertThatThrownBy(() -> LockClient.open(endpoint + "Bad_Name", Map.of("account-key", FAKE_KEY)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("invalid container name 'Bad_Name'");
        assertThatThrownBy(() -> LockClient.open(endpoint + "errors", Map.of("account-key", "not base64 " + FAKE_KEY)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'account-key'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(FAKE_KEY));
        assertThatThrownBy(() ->
                        LockClient.open(endpoint + "errors", Map.of("account-key", FAKE_KEY, "sas-token", "sig=x")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> LockClient.open(endpoint + "errors"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("needs https");
        assertThatThrownBy(() -> LockClient.open("azblob://127.0.0.1:1/a/b/c"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("malformed Azure Blob URI");
        assertThatThrownBy(() -> LockClient.open("azblob:" + server.uri() + "?container=errors&timeout=soon"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'timeout'")
                .satisfies(e -> assertNoSecret(e, Azurite.accountKey(server)));
        assertThatThrownBy(() -> LockClient.open("azblob:" + server.uri() + "?container=errors&bogus=1"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'bogus'")
                .satisfies(e -> assertNoSecret(e, Azurite.accountKey(server)));
    }

    @Test
    void theAddressIsReadAsOneHostWithoutUserInfo() {
        assertThatThrownBy(() -> LockClient.open("azblob://acct:pw-s3cret@127.0.0.1:1/devstoreaccount1/errors"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("malformed Azure Blob URI")
                .hasMessageContaining("no user-info")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pw-s3cret"));
        assertThatThrownBy(() -> LockClient.open(
                        "azblob://127.0.0.1:1,127.0.0.2:1/devstoreaccount1/errors", Map.of("account-key", FAKE_KEY)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("one host only");
        assertThatThrownBy(() -> LockClient.open("azblob://[::1]:1/devstoreaccount1/errors"))
                .as("an IPv6 loopback host is plain HTTP by default, where the default credential chain cannot go")
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("needs https");
        assertThatThrownBy(() -> LockClient.open("azblob://127.0.0.1:1/devstoreaccount1/errors?protocol=ftp"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("option 'protocol'")
                .hasMessageContaining("http or https");
    }

    @Test
    void theDefaultCredentialChainIsUsedWithoutKeyOrSas() {
        // azure-identity is on the test class path; its chain finds no identity here, which is
        // reported when the client opens, as a refused or failed access, never as a hang
        Throwable e = failure(() -> LockClient.open(
                "azblob://127.0.0.1:" + server.port() + "/devstoreaccount1/errors?protocol=https&timeout=3s"));
        assertThat(e)
                .isInstanceOfAny(LockConfigurationException.class, LockBackendException.class)
                .hasMessageContaining("azblob://127.0.0.1:" + server.port());
    }

    private static String sas(OffsetDateTime expiry, String resourceTypes) {
        return Azurite.admin(server)
                .generateAccountSas(new AccountSasSignatureValues(
                        expiry,
                        AccountSasPermission.parse("rwdlacup"),
                        new AccountSasService().setBlobAccess(true),
                        AccountSasResourceType.parse(resourceTypes)));
    }

    private static String signature(String sas) {
        for (String part : sas.split("&")) {
            if (part.startsWith("sig=")) {
                return part.substring(4);
            }
        }
        throw new IllegalStateException("no signature in the SAS");
    }

    private static Throwable failure(ThrowingCallable open) {
        Throwable[] caught = new Throwable[1];
        assertThatThrownBy(() -> {
                    try {
                        open.call();
                    } catch (Throwable t) {
                        caught[0] = t;
                        throw t;
                    }
                })
                .isNotNull();
        return caught[0];
    }

    /** The secret appears nowhere in the exception, its causes or its stack trace's text. */
    private static void assertNoSecret(Throwable e, String secret) {
        StringWriter text = new StringWriter();
        e.printStackTrace(new PrintWriter(text));
        assertThat(text.toString())
                .as("the exception chain of: " + e.getMessage())
                .doesNotContain(secret)
                .doesNotContain(URLEncoder.encode(secret, StandardCharsets.UTF_8));
    }
}
