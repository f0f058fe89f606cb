package io.locksmith.micrometer;

import java.util.Objects;
import java.util.function.Function;

/**
 * Whether, and how, a lock's name becomes the {@code lock} tag of its meters. Lock names are often
 * per-entity ids ({@code order:81723}): tagged whole, each would make meters of its own and grow
 * the registry without bound. The default is {@link #none()}; {@link #upTo(char)} keeps the part
 * before a separator ({@code order:}), a bounded set of values.
 */
public final class NameTag {

    private static final NameTag NONE = new NameTag(null);

    private final Function<String, String> reduce;

    private NameTag(Function<String, String> reduce) {
        this.reduce = reduce;
    }

    /** @return no {@code lock} tag: meters by backend, kind and outcome only (the default) */
    public static NameTag none() {
        return NONE;
    }

    /**
     * @param separator where a name's fixed part ends
     * @return the name up to and including the first {@code separator} ({@code order:81723} →
     *     {@code order:}); a name without one is tagged {@code other}
     */
    public static NameTag upTo(char separator) {
        return new NameTag(name -> {
            int i = name.indexOf(separator);
            return i < 0 ? "other" : name.substring(0, i + 1);
        });
    }

    /**
     * @param reduce maps a name to a tag value from a small, bounded set
     * @return a policy that tags with what {@code reduce} returns
     */
    public static NameTag of(Function<String, String> reduce) {
        return new NameTag(Objects.requireNonNull(reduce, "reduce"));
    }

    /** @return the whole name as the tag: only for a small, fixed set of lock names */
    public static NameTag whole() {
        return new NameTag(Function.identity());
    }

    boolean tags() {
        return reduce != null;
    }

    String value(String lockName) {
        String v = reduce.apply(lockName);
        return v == null ? "other" : v;
    }
}
