package io.locksmith.azure;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

/**
 * Where a lock lives in its container, and what its blob's metadata holds.
 *
 * <p>A lock key may be any Unicode up to 1,281 characters, but blob names have rules of their own
 * (at most 1,024 characters, no trailing dot or slash, path segments, reserved characters) and
 * metadata values must be ASCII. So the blob is named {@code locksmith/} plus the hex SHA-256 of
 * the key's UTF-8 bytes — always valid, distinct keys never collide — and the key itself is kept
 * in the metadata, base64url-encoded, for people and tools that list the container.
 */
final class BlobNames {

    /** Metadata: the lock key, base64url of its UTF-8 bytes. */
    static final String NAME = "locksmith_name";
    /** Metadata: the fencing counter, the token of the last grant (decimal); never reset. */
    static final String FENCE = "locksmith_fence";
    /** Metadata: the owner of the last grant, base64url of its UTF-8 bytes. */
    static final String OWNER = "locksmith_owner";

    /** A blob no lock can have (lock blobs are {@code locksmith/} plus 64 hex digits), read to probe access. */
    static final String PROBE = "locksmith/probe";

    private BlobNames() {}

    static String blob(String key) {
        return "locksmith/" + HexFormat.of().formatHex(sha256(key));
    }

    /**
     * The lease id of an acquisition: Azure wants a GUID, and a name-based one derived from the
     * owner (unique per acquisition) lets release and renewal find it without any state.
     */
    static String leaseId(String owner) {
        return UUID.nameUUIDFromBytes(owner.getBytes(StandardCharsets.UTF_8)).toString();
    }

    static Map<String, String> metadata(String key, String owner, long fence) {
        return Map.of(NAME, encode(key), OWNER, encode(owner), FENCE, Long.toString(fence));
    }

    /** @return the fencing counter in a blob's metadata; 0 for a blob that has none yet */
    static long fence(Map<String, String> metadata) {
        String value = metadata == null ? null : metadata.get(FENCE);
        if (value == null) {
            return 0;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    "the fencing counter in metadata '" + FENCE + "' is not a number: '" + value + "'", e);
        }
    }

    static String encode(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static String decode(String value) {
        return value == null ? null : new String(Base64.getUrlDecoder().decode(value), StandardCharsets.UTF_8);
    }

    private static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
