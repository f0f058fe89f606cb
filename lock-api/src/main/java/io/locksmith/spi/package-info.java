/**
 * The service-provider interface: what a lock backend implements so that the core can build
 * waiting, deadlines, renewal, loss detection and handles on top of it.
 *
 * <p>A provider ({@link io.locksmith.spi.LockProvider}) is found through
 * {@link java.util.ServiceLoader}, claims URI schemes and opens a
 * {@link io.locksmith.spi.LockBackend}. The backend offers a few atomic primitives (try once,
 * renew a batch, release) and may offer native wake-ups ({@link io.locksmith.spi.ReleaseSignals})
 * or a native queue ({@link io.locksmith.spi.QueuedAcquirer}).
 */
package io.locksmith.spi;
