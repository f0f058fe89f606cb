package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.locksmith.spi.Hold;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a semaphore's or a read-write lock's own key says, and who of a queue holds.
 *
 * <p>The value is {@code KIND PERMITS STATE [TOKEN]}: {@code permit 3 queued} while the key
 * waits, {@code permit 3 held} once the write that granted it was made (its mod revision is the
 * token), {@code permit 3 held 1234} after a move to a longer lease rewrote the key (the token is
 * written down then, as the move's revision would replace it). Read and write keys share one
 * prefix: {@code read 2147483647 held}, {@code write 1 queued}.
 *
 * <p>Who holds, by create revision (the queue's order; a key ahead only ever leaves it, so a key
 * that holds keeps holding): a permit of {@code n} holds among the first {@code n} keys, a reader
 * while no writer's key is older, a writer when its key is the oldest.
 */
final class EtcdShares {

    private static final String QUEUED = "queued";
    private static final String HELD = "held";

    private EtcdShares() {}

    /** One own key's value read back. */
    record Mark(Hold.Kind kind, int permits, boolean held, long token) {}

    /** @return the value of a key that waits */
    static ByteSequence queued(Hold hold) {
        return EtcdKeys.bytes(prefix(hold) + QUEUED);
    }

    /** @return the value of a key whose grant was written; its mod revision is the token */
    static ByteSequence held(Hold hold) {
        return EtcdKeys.bytes(prefix(hold) + HELD);
    }

    /** @return the value of a granted key rewritten after its grant: the token is written down */
    static ByteSequence held(Hold hold, long token) {
        return EtcdKeys.bytes(prefix(hold) + HELD + " " + token);
    }

    private static String prefix(Hold hold) {
        return hold.kind().name().toLowerCase(Locale.ROOT) + " " + hold.permits() + " ";
    }

    /** @return the key's mark, or empty for a value this client did not write */
    static Optional<Mark> mark(ByteSequence value) {
        String[] parts = value.toString(StandardCharsets.UTF_8).split(" ");
        try {
            Hold.Kind kind = Hold.Kind.valueOf(parts[0].toUpperCase(Locale.ROOT));
            int permits = Integer.parseInt(parts[1]);
            boolean held = parts[2].equals(HELD);
            long token = parts.length > 3 ? Long.parseLong(parts[3]) : 0;
            return Optional.of(new Mark(kind, permits, held, token));
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /** @return the token of a held key: written down, or the revision of the write that granted it */
    static long token(KeyValue kv, Mark mark) {
        return mark.token() != 0 ? mark.token() : kv.getModRevision();
    }

    /**
     * @param hold the hold the own key asks for
     * @param own the own key as read back
     * @param ahead the family's keys in create order, as {@link EtcdShared} reads them for the kind
     * @return whether the own key holds
     */
    static boolean holds(Hold hold, KeyValue own, List<KeyValue> ahead) {
        return switch (hold.kind()) {
            case PERMIT -> ahead.stream().anyMatch(kv -> kv.getKey().equals(own.getKey()));
            case READ ->
                ahead.stream()
                        .filter(kv -> kv.getCreateRevision() < own.getCreateRevision())
                        .noneMatch(EtcdShares::writer);
            case WRITE, EXCLUSIVE -> ahead.get(0).getKey().equals(own.getKey());
        };
    }

    /** @return whether the key is a writer's, or one this client did not write (which excludes readers too) */
    static boolean writer(KeyValue kv) {
        return mark(kv.getValue()).map(m -> m.kind() != Hold.Kind.READ).orElse(true);
    }

    /** @return the permits of the semaphore's oldest key, if another number than asked for */
    static Optional<Integer> mismatch(Hold hold, KeyValue own, List<KeyValue> ahead) {
        if (hold.kind() != Hold.Kind.PERMIT || ahead.get(0).getKey().equals(own.getKey())) {
            return Optional.empty();
        }
        return mark(ahead.get(0).getValue()).map(Mark::permits).filter(n -> n != hold.permits());
    }
}
