package io.locksmith.redis;

/**
 * Where a lock lives in Redis: {@code locksmith:{TAG}:KEY:lock}, {@code locksmith:{TAG}:KEY:fence},
 * its queue of waiters {@code locksmith:{TAG}:KEY:queue}, {@code ...:queue-presence} and
 * {@code ...:queue-wake}, and the channel {@code locksmith:{TAG}:KEY:released}. A semaphore lives in
 * {@code locksmith:{TAG}:KEY:semaphore}, {@code ...:semaphore-grants} and {@code ...:semaphore-fence};
 * a read-write lock in {@code ...:rwlock}, {@code ...:rwlock-grants}, {@code ...:rwlock-writers}
 * and {@code ...:rwlock-fence} ({@link Shared}). All three families signal on the lock's channel.
 *
 * <p>TAG is eight hex digits of the key's {@link String#hashCode()}: never empty and free of
 * braces, so the lock and its counter always share one Cluster slot (a key's own braces cannot
 * end the hash tag early or leave it empty). The key follows whole, between a fixed-length prefix
 * and a fixed suffix, so distinct keys give distinct Redis keys; and since no suffix ends another
 * ({@code :fence} is not {@code -fence}), no key of one family or role is a key of another.
 */
final class RedisKeys {

    private RedisKeys() {}

    private static String base(String key) {
        String tag = Integer.toHexString(key.hashCode());
        return "locksmith:{" + "0".repeat(8 - tag.length()) + tag + "}:" + key;
    }

    static String lock(String key) {
        return base(key) + ":lock";
    }

    static String fence(String key) {
        return base(key) + ":fence";
    }

    /** Sorted set: a lock's waiting owners by arrival, in server microseconds. */
    static String queue(String key) {
        return base(key) + ":queue";
    }

    /** Sorted set: a lock's waiting owners by the end of their presence, in server milliseconds. */
    static String presence(String key) {
        return base(key) + ":queue-presence";
    }

    /** Hash: a lock's waiting owners to the wake channel of each one's client ({@link RedisSignals}). */
    static String wake(String key) {
        return base(key) + ":queue-wake";
    }

    static String channel(String key) {
        return base(key) + ":released";
    }

    /** The value a grant stores in the lock key, compared on renewal and release. */
    static String value(long token, String owner) {
        return token + ":" + owner;
    }

    /**
     * The keys of a family whose keys admit several holders, all in the key's slot.
     *
     * @param holders sorted set: owner to lease end, in server milliseconds
     * @param grants hash: {@code "o:" + owner} to {@code "K:TOKEN"} (K is P, R or W); a semaphore's
     *     {@code "n"} to its permits
     * @param fence the fencing counter; never expires
     * @param writers sorted set of waiting writers' marks: owner to mark end; {@code null} for a semaphore
     */
    record Shared(String holders, String grants, String fence, String writers) {

        /** @return the keys an owner-checked change of a holder touches */
        String[] holdKeys() {
            return new String[] {holders, grants};
        }

        /** @return the keys {@code shared-abandon.lua} takes: the holds, and a read-write lock's marks */
        String[] abandonKeys() {
            return writers == null ? holdKeys() : new String[] {holders, grants, writers};
        }
    }

    static Shared semaphore(String key) {
        String base = base(key);
        return new Shared(base + ":semaphore", base + ":semaphore-grants", base + ":semaphore-fence", null);
    }

    static Shared readWrite(String key) {
        String base = base(key);
        return new Shared(base + ":rwlock", base + ":rwlock-grants", base + ":rwlock-fence", base + ":rwlock-writers");
    }

    /** @return the keys of the family of {@code kind}, which is not {@link io.locksmith.spi.Hold.Kind#EXCLUSIVE} */
    static Shared shared(String key, io.locksmith.spi.Hold.Kind kind) {
        return switch (kind) {
            case PERMIT -> semaphore(key);
            case READ, WRITE -> readWrite(key);
            case EXCLUSIVE -> throw new IllegalArgumentException("a lock's key has one holder: " + key);
        };
    }
}
