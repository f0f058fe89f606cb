package io.locksmith.azure;

import com.azure.storage.blob.BlobContainerAsyncClient;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.util.Set;

/**
 * Opens {@code azblob} URIs: {@code azblob://ACCOUNT.blob.core.windows.net/CONTAINER},
 * {@code azblob://HOST:PORT/ACCOUNT/CONTAINER} (emulators, custom endpoints) and
 * {@code azblob:CONNECTION-STRING?container=CONTAINER}.
 *
 * <p>Options: {@code account-key} or {@code sas-token} (credentials for the first two forms;
 * without them the default Azure credential chain, from the optional {@code azure-identity}),
 * {@code container} (for the connection-string form), {@code create-container} (default true),
 * {@code timeout} (per storage call; default 5s), {@code protocol} ({@code http} or
 * {@code https}; default https, http on loopback hosts). Secrets are best given in the options
 * map; in a URI, percent-encode them ({@code +} as {@code %2B}, {@code &} as {@code %26}).
 */
public final class AzureBlobLockProvider implements LockProvider {

    /** Creates the provider; {@link java.util.ServiceLoader} does this. */
    public AzureBlobLockProvider() {}

    @Override
    public String name() {
        return "azure-blob";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("azblob");
    }

    @Override
    public Set<String> optionNames() {
        return Set.of("account-key", "sas-token", "container", "create-container", "timeout", "protocol");
    }

    @Override
    public LockBackend open(BackendContext context) {
        AzureBlobSettings settings = AzureBlobSettings.of(context);
        BlobContainerAsyncClient container = AzureBlobAddress.containerClient(context, settings);
        return AzureBlobBackend.open(container, AzureBlobAddress.describe(container), settings);
    }
}
