package io.locksmith.zookeeper;

import io.locksmith.spi.Hold;

/**
 * Where semaphores and read-write locks live in ZooKeeper, apart from locks: a family's parent
 * under the root, then the key's container node, whose children are the holders' and waiters'
 * ephemeral sequential nodes.
 *
 * <pre>
 * /locksmith/.semaphore/ESCAPED-KEY/_c_UUID-permit-3-0000000042
 * /locksmith/.rwlock/ESCAPED-KEY/_c_UUID-read-0000000043
 * /locksmith/.rwlock/ESCAPED-KEY/_c_UUID-write-0000000044
 * </pre>
 *
 * <p>The key is escaped as for locks ({@link LockPaths#escape}), whose output holds no {@code .}:
 * a family's parent ({@code .semaphore}, {@code .rwlock}) is therefore never a lock's node, and
 * the three families never meet for any key. All of a key's nodes share one parent, so their
 * sequence numbers (the parent's child counter) order readers and writers in one queue.
 *
 * <p>A permit's node name carries the number of permits it asked for, so that one listing of the
 * queue tells whether every holder agrees, without a read per node.
 */
final class SharedPaths {

    static final String SEMAPHORES = LockPaths.ROOT + "/.semaphore";
    static final String READ_WRITE_LOCKS = LockPaths.ROOT + "/.rwlock";

    private static final String PERMIT = "permit-";
    private static final String READ = "read-";
    private static final String WRITE = "write-";
    private static final String PROTECTION = "_c_";
    /** {@code _c_}, a UUID and {@code -}: the prefix {@link LockPaths#protection()} makes. */
    private static final int PROTECTION_LENGTH = 3 + 36 + 1;

    private static final int SEQUENCE_DIGITS = 10;

    private SharedPaths() {}

    /**
     * One node of a shared key's queue, as its name tells.
     *
     * @param name the node's name
     * @param protection the prefix unique to the create that made it
     * @param kind PERMIT, READ or WRITE
     * @param permits the permits a PERMIT node asked for; 0 for the other kinds
     * @param sequence the server's sequence number: the node's place in the queue
     */
    record Entry(String name, String protection, Hold.Kind kind, int permits, long sequence) {}

    /** @return the key's container node in the family of the hold */
    static String parent(Hold hold, String key) {
        return switch (hold.kind()) {
            case PERMIT -> SEMAPHORES + "/" + LockPaths.escape(key);
            case READ, WRITE -> READ_WRITE_LOCKS + "/" + LockPaths.escape(key);
            case EXCLUSIVE -> throw new IllegalArgumentException("a lock's node is LockPaths.lock(key)");
        };
    }

    /** @return the path a node for the hold is created at; the server appends the sequence number */
    static String nodePrefix(String parent, String protection, Hold hold) {
        return parent + "/" + protection
                + switch (hold.kind()) {
                    case PERMIT -> PERMIT + hold.permits() + "-";
                    case READ -> READ;
                    case WRITE -> WRITE;
                    case EXCLUSIVE -> throw new IllegalArgumentException("a lock's node is LockPaths.nodePrefix");
                };
    }

    /** @return the entry a node's name describes, or null if the name is not one of ours */
    static Entry parse(String name) {
        int n = name.length();
        if (n < PROTECTION_LENGTH + SEQUENCE_DIGITS + 1 || !name.startsWith(PROTECTION)) {
            return null;
        }
        long sequence = 0;
        for (int i = n - SEQUENCE_DIGITS; i < n; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            sequence = sequence * 10 + (c - '0');
        }
        String protection = name.substring(0, PROTECTION_LENGTH);
        String kind = name.substring(PROTECTION_LENGTH, n - SEQUENCE_DIGITS);
        if (kind.equals(READ)) {
            return new Entry(name, protection, Hold.Kind.READ, 0, sequence);
        }
        if (kind.equals(WRITE)) {
            return new Entry(name, protection, Hold.Kind.WRITE, 0, sequence);
        }
        if (kind.startsWith(PERMIT) && kind.endsWith("-") && kind.length() > PERMIT.length() + 1) {
            try {
                int permits = Integer.parseInt(kind.substring(PERMIT.length(), kind.length() - 1));
                return permits < 1 ? null : new Entry(name, protection, Hold.Kind.PERMIT, permits, sequence);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
