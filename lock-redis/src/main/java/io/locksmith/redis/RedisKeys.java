package io.locksmith.redis;

/**
 * Where a lock lives in Redis: {@code locksmith:{TAG}:KEY:lock}, {@code locksmith:{TAG}:KEY:fence}
 * and the channel {@code locksmith:{TAG}:KEY:released}.
 *
 * <p>TAG is eight hex digits of the key's {@link String#hashCode()}: never empty and free of
 * braces, so the lock and its counter always share one Cluster slot (a key's own braces cannot
 * end the hash tag early or leave it empty). The key follows whole, between a fixed-length prefix
 * and a fixed suffix, so distinct keys give distinct Redis keys.
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

    static String channel(String key) {
        return base(key) + ":released";
    }

    /** The value a grant stores in the lock key, compared on renewal and release. */
    static String value(long token, String owner) {
        return token + ":" + owner;
    }
}
