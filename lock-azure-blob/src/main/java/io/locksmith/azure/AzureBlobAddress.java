package io.locksmith.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.util.HttpClientOptions;
import com.azure.storage.blob.BlobContainerAsyncClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendAddress;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Redaction;
import io.locksmith.spi.Secret;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Builds the container client an {@code azblob} URI names, with its credentials:
 *
 * <ul>
 *   <li>{@code azblob://ACCOUNT.blob.core.windows.net/CONTAINER} — the account's own endpoint;
 *   <li>{@code azblob://HOST[:PORT]/ACCOUNT/CONTAINER} — a custom endpoint with the account in the
 *       path (Azurite and other emulators, Azure Stack); plain HTTP on loopback hosts, else HTTPS,
 *       unless {@code protocol} says otherwise;
 *   <li>{@code azblob:CONNECTION-STRING?container=CONTAINER} — an Azure Storage connection string,
 *       pasted as is, which carries the endpoint and the credentials.
 * </ul>
 *
 * <p>With the first two, {@code account-key} or {@code sas-token} give the credentials, and
 * without either the default Azure credential chain is used (it needs {@code azure-identity}).
 */
final class AzureBlobAddress {

    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "localhost", "::1", "[::1]");
    private static final Pattern CONTAINER = Pattern.compile("\\$root|[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62}");

    private AzureBlobAddress() {}

    static BlobContainerAsyncClient containerClient(BackendContext context, AzureBlobSettings settings) {
        BlobContainerClientBuilder builder = new BlobContainerClientBuilder()
                .httpClient(httpClient(settings.timeout()))
                // no retries inside the SDK: the core retries waits and renewals within their deadlines
                .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, settings.timeout(), null, null, null));
        if (context.location().startsWith(context.scheme() + "://")) {
            fromUri(builder, context);
        } else {
            fromConnectionString(builder, context);
        }
        try {
            return builder.buildAsyncClient();
        } catch (RuntimeException e) {
            throw new LockConfigurationException(
                    "cannot use " + context.redactedLocation() + ": "
                            + Redaction.redact(String.valueOf(e.getMessage())),
                    e);
        }
    }

    /** @return {@code azblob://host[:port]/path-to-container}, from the client's URL without its query */
    static String describe(BlobContainerAsyncClient container) {
        String url = container.getBlobContainerUrl();
        int query = url.indexOf('?');
        url = query < 0 ? url : url.substring(0, query);
        return Redaction.redact("azblob" + url.substring(url.indexOf("://")));
    }

    static HttpClient httpClient(Duration timeout) {
        return HttpClient.createDefault(new HttpClientOptions()
                .setConnectTimeout(timeout)
                .setResponseTimeout(timeout)
                .setReadTimeout(timeout)
                .setWriteTimeout(timeout));
    }

    private static void fromConnectionString(BlobContainerClientBuilder builder, BackendContext context) {
        String cs = context.location().substring(context.scheme().length() + 1);
        if (context.option("account-key").isPresent()
                || context.option("sas-token").isPresent()) {
            throw new LockConfigurationException("give the credentials once: " + context.redactedLocation()
                    + " is a connection string, which carries them; drop account-key and sas-token");
        }
        String container = context.option("container")
                .orElseThrow(() -> new LockConfigurationException("no container for " + context.redactedLocation()
                        + ": add ?container=NAME after the connection string"));
        try {
            builder.connectionString(cs);
        } catch (RuntimeException e) {
            throw new LockConfigurationException("malformed Azure Storage connection string in "
                    + context.redactedLocation() + ": " + Redaction.redact(String.valueOf(e.getMessage()))
                    + " (expected azblob:DefaultEndpointsProtocol=https;AccountName=...;AccountKey=...;"
                    + "EndpointSuffix=core.windows.net?container=NAME, or a BlobEndpoint=... with a key or SAS)");
        }
        builder.containerName(container(context, container));
    }

    private static void fromUri(BlobContainerClientBuilder builder, BackendContext context) {
        BackendAddress address = context.address();
        if (address.user().isPresent()) {
            throw malformed(context, "no user-info allowed; give the key in the account-key option");
        }
        if (address.hosts().size() > 1) {
            throw malformed(context, "one host only");
        }
        if (context.option("container").isPresent()) {
            throw malformed(context, "the container is in the path; drop the container option");
        }
        String path = address.path().replaceAll("^/+|/+$", "");
        String[] segments = path.isEmpty() ? new String[0] : path.split("/");
        String host = address.host().host();
        String protocol = context.option("protocol")
                .map(p -> p.trim().toLowerCase(Locale.ROOT))
                .orElse(LOOPBACK.contains(host) ? "http" : "https");
        if (!protocol.equals("http") && !protocol.equals("https")) {
            throw context.invalid("protocol", context.option("protocol").orElseThrow(), "http or https");
        }
        String authority = protocol + "://" + address.host();
        String account;
        String endpoint;
        if (segments.length == 1) {
            account = host.contains(".") && !host.matches("[0-9.]+") ? host.substring(0, host.indexOf('.')) : null;
            if (account == null) {
                throw malformed(context, "the account is not in the host; write azblob://HOST:PORT/ACCOUNT/CONTAINER");
            }
            endpoint = authority;
        } else if (segments.length == 2) {
            account = segments[0];
            endpoint = authority + "/" + account;
        } else {
            throw malformed(
                    context,
                    "expected azblob://ACCOUNT.blob.core.windows.net/CONTAINER or"
                            + " azblob://HOST:PORT/ACCOUNT/CONTAINER");
        }
        builder.endpoint(endpoint).containerName(container(context, segments[segments.length - 1]));
        credentials(builder, context, account, protocol);
    }

    private static void credentials(
            BlobContainerClientBuilder builder, BackendContext context, String account, String protocol) {
        Optional<Secret> key = context.secretOption("account-key");
        Optional<Secret> sas = context.secretOption("sas-token");
        if (key.isPresent() && sas.isPresent()) {
            throw new LockConfigurationException(
                    "give one credential for " + context.redactedLocation() + ": account-key or sas-token, not both");
        }
        if (key.isPresent()) {
            String accountKey = key.get().reveal().trim();
            try {
                Base64.getDecoder().decode(accountKey);
            } catch (IllegalArgumentException e) {
                // the value is masked: a key with a typo is still mostly a key
                throw context.invalid("account-key", accountKey, "a base64 account key (in a URI, write + as %2B)");
            }
            builder.credential(new StorageSharedKeyCredential(account, accountKey));
        } else if (sas.isPresent()) {
            String token = sas.get().reveal().trim();
            builder.sasToken(token.startsWith("?") ? token.substring(1) : token);
        } else {
            if (protocol.equals("http")) {
                throw new LockConfigurationException("no credentials for " + context.redactedLocation()
                        + ": the default Azure credential chain needs https; give account-key or sas-token,"
                        + " or use a connection string");
            }
            builder.credential(DefaultCredentials.chain(context.redactedLocation()));
        }
    }

    private static String container(BackendContext context, String name) {
        if (!CONTAINER.matcher(name).matches()) {
            throw new LockConfigurationException(
                    "invalid container name '" + name + "' in " + context.redactedLocation()
                            + ": 3 to 63 lower-case letters, digits and single hyphens, starting with a letter or digit");
        }
        return name;
    }

    private static LockConfigurationException malformed(BackendContext context, String why) {
        return new LockConfigurationException("malformed Azure Blob URI '" + context.redactedLocation() + "': " + why);
    }
}
