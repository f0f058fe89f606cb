package io.locksmith.zookeeper;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Where a lock lives in ZooKeeper: a container node {@code /locksmith/ESCAPED-KEY} whose children
 * are the holder's and the waiters' ephemeral sequential nodes, {@code _c_UUID-lock-0000000042}
 * (a prefix unique to the create that made it, as Curator's protection writes it, then a fixed
 * name and the server's sequence number).
 *
 * <p>ZooKeeper forbids some characters in path elements and the elements {@code .} and
 * {@code ..}. The key is therefore escaped per UTF-16 unit: ASCII letters, digits, {@code -},
 * {@code _} and {@code :} stay as they are and every other unit becomes {@code %} and four hex
 * digits. That is fixed-width, so it is injective for any string (lone surrogates included), never
 * empty, and never {@code .} or {@code ..}; {@code order:12345} stays readable.
 */
final class LockPaths {

    static final String ROOT = "/locksmith";
    static final String NODE_NAME = "lock-";
    /** The same prefix as Curator's protected creates, so that operators' tools read the names alike. */
    private static final String PROTECTION = "_c_";

    private static final int SEQUENCE_DIGITS = 10;

    private LockPaths() {}

    /** @return the lock's container node for a backend key */
    static String lock(String key) {
        return ROOT + "/" + escape(key);
    }

    /** @return a prefix unique to one create, so that its node can be found when the answer was lost */
    static String protection() {
        return PROTECTION + UUID.randomUUID() + "-";
    }

    /** @return the path a waiter's node is created at; the server appends the sequence number */
    static String nodePrefix(String lockPath, String protection) {
        return lockPath + "/" + protection + NODE_NAME;
    }

    /** @return the prefix unique to the create that made a node of ours, or "" for a name not ours */
    static String protectionOf(String name) {
        return sequence(name) < 0 ? "" : name.substring(0, name.length() - SEQUENCE_DIGITS - NODE_NAME.length());
    }

    static String escape(String key) {
        StringBuilder out = new StringBuilder(key.length() + 16);
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '_'
                    || c == ':') {
                out.append(c);
            } else {
                out.append('%').append(String.format("%04X", (int) c));
            }
        }
        return out.toString();
    }

    /** @return the server-assigned sequence of a lock node's name, or -1 if the name is not one of ours */
    static long sequence(String name) {
        int n = name.length();
        if (n < SEQUENCE_DIGITS + NODE_NAME.length()
                || !name.startsWith(NODE_NAME, n - SEQUENCE_DIGITS - NODE_NAME.length())) {
            return -1;
        }
        long seq = 0;
        for (int i = n - SEQUENCE_DIGITS; i < n; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            seq = seq * 10 + (c - '0');
        }
        return seq;
    }

    /**
     * @param ours our node's name
     * @param children the lock node's children
     * @return the child just ahead of ours in the queue, or empty if ours is the lowest (it holds).
     *     A node made by the same create as ours (a retrying client's first try, whose answer was
     *     lost) is ours too, and never ahead of us.
     */
    static Optional<String> predecessor(String ours, List<String> children) {
        long mine = sequence(ours);
        String protection = protectionOf(ours);
        String best = null;
        long bestSeq = -1;
        for (String child : children) {
            long s = sequence(child);
            if (s >= 0 && s < mine && s > bestSeq && (protection.isEmpty() || !child.startsWith(protection))) {
                best = child;
                bestSeq = s;
            }
        }
        return Optional.ofNullable(best);
    }

    /** @return the last element of a path */
    static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
