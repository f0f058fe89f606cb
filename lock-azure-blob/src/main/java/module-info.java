/**
 * Locksmith's Azure Blob Storage backend: {@code azblob://account.blob.core.windows.net/container},
 * {@code azblob://host:port/account/container} and {@code azblob:CONNECTION-STRING?container=NAME}.
 */
module io.locksmith.azure {
    requires io.locksmith.api;
    requires com.azure.core;
    requires com.azure.storage.blob;
    requires com.azure.storage.common;
    requires reactor.core;
    requires org.reactivestreams;
    // optional: the default Azure credential chain, used only when it is on the path
    requires static com.azure.identity;

    exports io.locksmith.azure;

    provides io.locksmith.spi.LockProvider with io.locksmith.azure.AzureBlobLockProvider;
}
