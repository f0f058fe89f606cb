/**
 * The in-memory backend: locks inside one JVM, with leases on the monotonic clock, renewal, loss
 * and fencing tokens exactly as the distributed backends keep them.
 *
 * <p>{@code memory:} gives each client a store of its own; {@code memory://NAME} shares one store
 * among every client of that name in the JVM, so that several clients behave like several
 * processes on one lock server.
 *
 * <h2>What the store keeps</h2>
 * Every kind of hold ({@link io.locksmith.spi.Hold.Kind}). Each family has a map of its own in the
 * store, keyed by the key as given, so the lock, the semaphore and the read-write lock of one name
 * never meet whatever the name. One token counter serves the whole store: every grant's token is
 * greater than every earlier grant's, whatever the key or family, and a restart keeps it.
 * <ul>
 *   <li><b>Locks</b>: one entry per key: owner, token, expiry.
 *   <li><b>Semaphores</b>: per key, the holders (owner, token, expiry, in grant order) and the
 *       number of permits they agreed on. A permit is granted while fewer hold; while any hold, a
 *       permit of another number fails with {@link io.locksmith.PermitMismatchException}; the first
 *       grant on a key without holders sets the number.
 *   <li><b>Read-write locks</b>: per key, the readers and the writer (each with owner, token,
 *       expiry, in grant order) and the marks of writers waiting. A writer whose attempt finds the
 *       key held marks it until twice its lease after that attempt; while another owner's mark
 *       lasts, no new reader is granted. The writer's grant and its {@code abandon} drop the mark.
 *   <li><b>Leader elections</b> are locks whose owner ends in the identity; <b>rate limiters</b>
 *       are semaphores whose permits run out with their lease (the window).
 * </ul>
 *
 * <h2>What it costs</h2>
 * There is no network: each acquisition, release and abandon is one atomic step on the store (one
 * {@code ConcurrentHashMap.compute} of the key), and a renewal tick is one call for all of a
 * client's leases, every kind mixed, each lease checked and extended in its own atomic step.
 *
 * <h2>Where it is weaker</h2>
 * <ul>
 *   <li>Waiters are not queued: who of several waiters gets a freed permit or lock is whoever tries
 *       first. A waiting writer keeps new readers out by its mark, not by a place in a queue; a
 *       writer that stops trying without abandoning (its process died) keeps readers out until its
 *       mark runs out, at most twice its lease. Several waiting writers are granted in no set order.
 *   <li>Release signals go by key alone, as the SPI subscribes them: a release in one family also
 *       wakes the other families' waiters of that key, who try again and find their own key as it
 *       was. It costs them an attempt, never a wrong grant.
 *   <li>A hold that runs out sends no signal (nor does a server's expiry): a waiter wakes when the
 *       remaining lease its last attempt was told has passed. A writer is told no more than its own
 *       lease, so that it tries again, and renews its mark, before the mark runs out.
 * </ul>
 */
package io.locksmith.memory;
