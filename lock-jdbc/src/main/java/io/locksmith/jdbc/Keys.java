package io.locksmith.jdbc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How a lock key is stored: as the lower-case hex SHA-256 of its UTF-8 bytes, the table's primary
 * key, next to the key in full. A key can be up to 1,281 characters of any Unicode (over 5,000
 * bytes), more than MySQL/MariaDB and others index; the hash is 64 ASCII characters everywhere,
 * and distinct keys collide only if SHA-256 does.
 */
final class Keys {

    private Keys() {}

    /** @return the key's SHA-256, lower-case hex */
    static String hash(String key) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }

    /**
     * @param table the lock table
     * @return the PostgreSQL notification channel for releases in that table: an identifier of 26
     *     characters whatever the table's name, so it never exceeds PostgreSQL's 63-byte limit
     */
    static String channel(String table) {
        return "locksmith_" + hash(table).substring(0, 16);
    }
}
