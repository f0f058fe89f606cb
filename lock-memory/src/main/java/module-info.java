/** Locksmith's in-memory backend: {@code memory:} and {@code memory://group} URIs. */
module io.locksmith.memory {
    requires io.locksmith.api;

    exports io.locksmith.memory;

    provides io.locksmith.spi.LockProvider with
            io.locksmith.memory.MemoryLockProvider;
}
