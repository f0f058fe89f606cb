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
    // Azure's HTTP client runs on Reactor Netty, an automatic module: on the module path it requires
    // nothing, so with Netty 4.2 (named modules) the HTTP/2 codec it uses, which azure-core-http-netty
    // does not require, would be missing (NoClassDefFoundError Http2StreamFrameToHttpObjectCodec).
    // Netty 4.1's automatic module has the same name, so this holds for either.
    requires io.netty.codec.http2;
    // optional: the default Azure credential chain, used only when it is on the path
    requires static com.azure.identity;

    exports io.locksmith.azure;

    provides io.locksmith.spi.LockProvider with
            io.locksmith.azure.AzureBlobLockProvider;
}
