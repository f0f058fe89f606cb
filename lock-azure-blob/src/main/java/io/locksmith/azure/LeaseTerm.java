package io.locksmith.azure;

import java.time.Duration;

/**
 * The length, in whole seconds, the service last granted one held lease for: the grant's
 * attachment, which the core hands back with every renewal. Azure's Renew Lease restarts a lease
 * with the length it was acquired for, whatever the caller wants; so when a renewal asks for
 * another length ({@code LockHandle.extend}), {@link LeaseRenewal} changes it and records the new
 * one here.
 */
final class LeaseTerm {

    /** Azure's shortest and longest finite leases, in seconds. */
    static final int MINIMUM_SECONDS = 15;

    static final int MAXIMUM_SECONDS = 60;

    private volatile int seconds;
    private final String blob;

    LeaseTerm(int seconds) {
        this(seconds, null);
    }

    /** A lease on another blob than the key's lock blob: a semaphore's slot. */
    LeaseTerm(int seconds, String blob) {
        this.seconds = seconds;
        this.blob = blob;
    }

    /** @return the leased blob's name, or {@code null} for a lock (its blob follows from the key) */
    String blob() {
        return blob;
    }

    /** @return the length last granted */
    int seconds() {
        return seconds;
    }

    /** Records a length the service has granted. */
    void granted(int newSeconds) {
        seconds = newSeconds;
    }

    /** Azure leases are whole seconds; rounding up keeps the service's lease at least the client's. */
    static int seconds(Duration lease) {
        long s = (lease.toMillis() + 999) / 1000;
        return (int) Math.max(MINIMUM_SECONDS, Math.min(MAXIMUM_SECONDS, s));
    }
}
