package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.locksmith.spi.Hold;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where a lock lives in etcd: every waiter and the holder of lock key {@code K} own one etcd key
 * {@code NAMESPACE/:ESCAPED(K)/OWNER}; the lock's prefix is {@code NAMESPACE/:ESCAPED(K)/}.
 *
 * <p>{@code ESCAPED} keeps ASCII letters, digits and {@code . _ - :} and writes every other
 * character as the {@code %XX} escapes of its UTF-8 bytes ({@code %} included), so it is
 * injective and never contains {@code /}: one lock's prefix is never a prefix of another lock's.
 * The namespace is made of segments without {@code :}, so the segment that starts with {@code :}
 * always marks the lock, and a nested namespace ({@code apps} and {@code apps/billing}) can never
 * be read as a lock of the outer one.
 *
 * <p>A semaphore's and a read-write lock's keys live beside the locks' under segments of their
 * own, {@code NAMESPACE/!semaphore:ESCAPED(K)/OWNER} and {@code NAMESPACE/!rw:ESCAPED(K)/OWNER}:
 * a segment starting with {@code !} is neither a namespace segment nor a lock's (which starts
 * with {@code :}), and {@code ESCAPED} writes {@code !} as {@code %21}, so the three families
 * never share a prefix, whatever the key.
 */
final class EtcdKeys {

    static final String DEFAULT_NAMESPACE = "locksmith";
    private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final String namespace;

    EtcdKeys(String namespace) {
        if (!valid(namespace)) {
            throw new IllegalArgumentException("namespace must be segments of letters, digits, '.', '_' or '-'"
                    + " separated by '/', was '" + namespace + "'");
        }
        this.namespace = namespace;
    }

    static boolean valid(String namespace) {
        return namespace != null && NAMESPACE.matcher(namespace).matches();
    }

    /** @return the prefix of every key this client may create, for the deletion watch */
    ByteSequence namespacePrefix() {
        return bytes(namespace + "/");
    }

    /** @return the prefix shared by the holder and the waiters of one lock */
    ByteSequence lockPrefix(String key) {
        return bytes(namespace + "/:" + escape(key) + "/");
    }

    /** @return the key one acquisition puts under its lock's prefix */
    ByteSequence own(String key, String owner) {
        return bytes(namespace + "/:" + escape(key) + "/" + owner);
    }

    /** @return the prefix shared by the holders and the waiters of one key of the hold's family */
    ByteSequence prefix(Hold.Kind kind, String key) {
        return bytes(namespace + "/" + Family.of(kind).marker + escape(key) + "/");
    }

    /** @return the key one acquisition of that kind puts under its family's prefix */
    ByteSequence own(Hold.Kind kind, String key, String owner) {
        return bytes(namespace + "/" + Family.of(kind).marker + escape(key) + "/" + owner);
    }

    /** The three namespaces, each marked by how its key's segment starts. */
    enum Family {
        LOCK(":"),
        SEMAPHORE("!semaphore:"),
        READ_WRITE("!rw:");

        final String marker;

        Family(String marker) {
            this.marker = marker;
        }

        static Family of(Hold.Kind kind) {
            return switch (kind) {
                case EXCLUSIVE -> LOCK;
                case PERMIT -> SEMAPHORE;
                case READ, WRITE -> READ_WRITE;
            };
        }
    }

    static String escape(String key) {
        StringBuilder out = new StringBuilder(key.length() + 16);
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-' || c == ':')) {
                out.append((char) c);
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return out.toString();
    }

    /**
     * An own key read back: the family, the lock key and the owner it was put for.
     *
     * @param family the namespace it lives in
     * @param lockKey the lock's backend key
     * @param owner the acquisition's owner
     */
    record Own(Family family, String lockKey, String owner) {

        Own(String lockKey, String owner) {
            this(Family.LOCK, lockKey, owner);
        }
    }

    /**
     * @param key an etcd key, as a watch reports it
     * @return the lock key and owner it is the own key of, if it is one under this namespace
     */
    Optional<Own> parse(ByteSequence key) {
        String s = key.toString(StandardCharsets.UTF_8);
        for (Family family : Family.values()) {
            String start = namespace + "/" + family.marker;
            int slash = s.indexOf('/', start.length()); // the escaped lock key never contains one
            if (!s.startsWith(start) || slash < 0) {
                continue;
            }
            try {
                return Optional.of(
                        new Own(family, unescape(s.substring(start.length(), slash)), s.substring(slash + 1)));
            } catch (IllegalArgumentException e) {
                return Optional.empty(); // someone else's key, not one this client wrote
            }
        }
        return Optional.empty();
    }

    /** The inverse of {@link #escape}, which leaves no {@code +} for the decoder to read as a space. */
    static String unescape(String escaped) {
        return URLDecoder.decode(escaped, StandardCharsets.UTF_8);
    }

    static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    String namespace() {
        return namespace;
    }
}
