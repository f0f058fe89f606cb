/** A ShedLock {@code LockProvider} over any Locksmith client. */
module io.locksmith.shedlock {
    // both in the API: the provider is built from a LockClient and is a ShedLock LockProvider
    requires transitive io.locksmith.api;
    requires transitive net.javacrumbs.shedlock.core;

    exports io.locksmith.shedlock;
}
