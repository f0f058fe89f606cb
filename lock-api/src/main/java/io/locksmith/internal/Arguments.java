package io.locksmith.internal;

import java.time.Duration;
import java.util.Objects;

/** Argument checks shared by the API, with messages that name the argument and the value. */
public final class Arguments {

    /** The longest lock name, in code points. */
    public static final int MAX_NAME_LENGTH = 1024;

    private Arguments() {}

    /**
     * @param name a lock name
     * @return the name
     * @throws NullPointerException if null
     * @throws IllegalArgumentException if empty, longer than 1,024 code points, or holding an
     *     unpaired surrogate (it could not be stored as UTF-8)
     */
    public static String lockName(String name) {
        Objects.requireNonNull(name, "lock name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("lock name must not be empty");
        }
        int length = name.length();
        if (length > MAX_NAME_LENGTH) {
            int codePoints = name.codePointCount(0, length);
            if (codePoints > MAX_NAME_LENGTH) {
                throw new IllegalArgumentException("lock name must be at most " + MAX_NAME_LENGTH + " characters, was "
                        + codePoints + " characters starting '" + name.substring(0, 32) + "…'");
            }
        }
        for (int i = 0; i < length; i++) {
            char c = name.charAt(i);
            if (Character.isSurrogate(c)) {
                boolean paired =
                        Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(name.charAt(i + 1));
                if (!paired) {
                    throw new IllegalArgumentException(
                            "lock name holds an unpaired surrogate at index " + i + " and is not valid Unicode");
                }
                i++;
            }
        }
        return name;
    }

    /**
     * Checks a leader election participant's identity.
     *
     * @param identity 1 to 64 bytes of UTF-8, no control characters (percent-encoded in the lock's
     *     owner, it then fits every backend's owner column)
     * @return the identity
     */
    public static String identity(String identity) {
        java.util.Objects.requireNonNull(identity, "identity");
        int bytes = identity.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (identity.isEmpty() || bytes > 64) {
            throw new IllegalArgumentException("identity must be 1 to 64 bytes of UTF-8, was " + bytes + " bytes long");
        }
        for (int i = 0; i < identity.length(); i++) {
            if (Character.isISOControl(identity.charAt(i))) {
                throw new IllegalArgumentException("identity holds a control character at index " + i);
            }
        }
        return identity;
    }

    /**
     * Checks a semaphore's or rate limiter's number of permits.
     *
     * @param permits at least 1
     * @return the number
     */
    public static int permits(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1, was " + permits);
        }
        return permits;
    }

    /**
     * @param what the argument's name
     * @param d a duration
     * @return the duration
     * @throws NullPointerException if null
     * @throws IllegalArgumentException if zero or negative
     */
    public static Duration positive(String what, Duration d) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + d);
        }
        return d;
    }

    /**
     * @param what the argument's name
     * @param d a duration
     * @return the duration
     * @throws NullPointerException if null
     * @throws IllegalArgumentException if negative
     */
    public static Duration notNegative(String what, Duration d) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative, was " + d);
        }
        return d;
    }
}
