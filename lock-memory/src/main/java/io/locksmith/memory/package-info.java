/**
 * The in-memory backend: locks inside one JVM, with leases on the monotonic clock, renewal, loss
 * and fencing tokens exactly as the distributed backends keep them.
 *
 * <p>{@code memory:} gives each client a store of its own; {@code memory://NAME} shares one store
 * among every client of that name in the JVM, so that several clients behave like several
 * processes on one lock server.
 */
package io.locksmith.memory;
