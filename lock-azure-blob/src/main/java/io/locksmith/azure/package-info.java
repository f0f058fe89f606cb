/**
 * The Azure Blob Storage backend: one blob per lock name, held by a blob lease (15 to 60 s) that
 * the client renews, with the fencing counter in the blob's metadata, written under the lease.
 * Waiters back off with jitter: a lease has no wake-up signal.
 *
 * <p>Open it with {@code LockClient.open("azblob://account.blob.core.windows.net/locks")}, or
 * around an existing container client with {@link io.locksmith.azure.AzureBlobLocks}.
 */
package io.locksmith.azure;
