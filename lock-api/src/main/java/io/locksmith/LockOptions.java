package io.locksmith;

import io.locksmith.internal.Arguments;
import io.locksmith.spi.Durations;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings every backend understands, with defaults that suit most applications: a 30 s lease,
 * automatic renewal every lease/3, no key prefix, and waiting back-off between 10 ms and 1 s.
 * Immutable; build one with {@link #builder()} or start from {@link #defaults()}.
 *
 * <p>The same settings can ride on a URI as query parameters, under the names in
 * {@link #OPTION_NAMES}: {@code redis://host:6379?lease=10s&prefix=billing}.
 *
 * <pre>{@code
 * LockOptions options = LockOptions.builder().lease(Duration.ofSeconds(10)).prefix("billing").build();
 * LockClient locks = LockClient.open("memory:", options);
 * }</pre>
 */
public final class LockOptions {

    /** The option names understood in a URI query or an options map. */
    public static final java.util.Set<String> OPTION_NAMES =
            java.util.Set.of("lease", "renew", "renew-interval", "prefix", "backoff-min", "backoff-max");

    private static final int MAX_PREFIX_LENGTH = 256;
    private static final LockOptions DEFAULTS = new Builder().build();

    private final Duration lease;
    private final boolean autoRenew;
    private final Duration renewInterval;
    private final String prefix;
    private final Duration backoffMin;
    private final Duration backoffMax;

    private LockOptions(Builder b) {
        this.lease = b.lease;
        this.autoRenew = b.autoRenew;
        this.renewInterval = b.renewInterval;
        this.prefix = b.prefix;
        this.backoffMin = b.backoffMin;
        this.backoffMax = b.backoffMax;
    }

    /** @return the default options */
    public static LockOptions defaults() {
        return DEFAULTS;
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding these options, to change some of them */
    public Builder toBuilder() {
        return new Builder()
                .lease(lease)
                .autoRenew(autoRenew)
                .renewInterval(renewInterval)
                .prefix(prefix)
                .backoffMin(backoffMin)
                .backoffMax(backoffMax);
    }

    /** @return how long a grant lasts on the backend without renewal; default 30 s */
    public Duration lease() {
        return lease;
    }

    /** @return whether held locks are renewed automatically while open; default {@code true} */
    public boolean autoRenew() {
        return autoRenew;
    }

    /** @return how often a held lock is renewed; by default a third of the lease */
    public Duration renewInterval() {
        return renewInterval != null ? renewInterval : lease.dividedBy(3);
    }

    /** @return the explicitly set renewal interval, if one was set */
    public Optional<Duration> explicitRenewInterval() {
        return Optional.ofNullable(renewInterval);
    }

    /** @return the namespace put before every lock name (as {@code prefix:name}), or "" for none */
    public String prefix() {
        return prefix;
    }

    /** @return the shortest pause between two attempts while waiting; default 10 ms */
    public Duration backoffMin() {
        return backoffMin;
    }

    /** @return the longest pause between two attempts while waiting; default 1 s */
    public Duration backoffMax() {
        return backoffMax;
    }

    private static java.util.List<String> sorted() {
        return OPTION_NAMES.stream().sorted().toList();
    }

    private static boolean parseBoolean(String name, String value) {
        return switch (value.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "on", "yes" -> true;
            case "false", "off", "no" -> false;
            default ->
                throw new IllegalArgumentException("option '" + name + "' must be true or false, was '" + value + "'");
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LockOptions other
                && lease.equals(other.lease)
                && autoRenew == other.autoRenew
                && Objects.equals(renewInterval, other.renewInterval)
                && prefix.equals(other.prefix)
                && backoffMin.equals(other.backoffMin)
                && backoffMax.equals(other.backoffMax);
    }

    @Override
    public int hashCode() {
        return Objects.hash(lease, autoRenew, renewInterval, prefix, backoffMin, backoffMax);
    }

    @Override
    public String toString() {
        return "LockOptions[lease=" + Durations.format(lease) + ", renew=" + autoRenew
                + ", renew-interval=" + Durations.format(renewInterval()) + ", prefix='" + prefix
                + "', backoff=" + Durations.format(backoffMin) + ".." + Durations.format(backoffMax) + "]";
    }

    /** Builds {@link LockOptions}; every setter checks its argument at once. */
    public static final class Builder {
        private Duration lease = Duration.ofSeconds(30);
        private boolean autoRenew = true;
        private Duration renewInterval;
        private String prefix = "";
        private Duration backoffMin = Duration.ofMillis(10);
        private Duration backoffMax = Duration.ofSeconds(1);

        private Builder() {}

        /**
         * @param lease how long a grant lasts without renewal; positive
         * @return this builder
         */
        public Builder lease(Duration lease) {
            this.lease = Arguments.positive("lease", lease);
            return this;
        }

        /**
         * @param autoRenew whether held locks are renewed automatically while open
         * @return this builder
         */
        public Builder autoRenew(boolean autoRenew) {
            this.autoRenew = autoRenew;
            return this;
        }

        /**
         * @param interval how often to renew, shorter than the lease; {@code null} for lease/3
         * @return this builder
         */
        public Builder renewInterval(Duration interval) {
            this.renewInterval = interval == null ? null : Arguments.positive("renew-interval", interval);
            return this;
        }

        /**
         * @param prefix a namespace put before every lock name; letters, digits and {@code . _ - /},
         *     at most 256 characters, or "" for none
         * @return this builder
         */
        public Builder prefix(String prefix) {
            Objects.requireNonNull(prefix, "prefix");
            if (prefix.length() > MAX_PREFIX_LENGTH || !prefix.matches("[A-Za-z0-9._/-]*")) {
                throw new IllegalArgumentException("prefix must be at most " + MAX_PREFIX_LENGTH
                        + " characters of letters, digits and . _ - /, was '" + prefix + "'");
            }
            this.prefix = prefix;
            return this;
        }

        /**
         * @param min the shortest pause between attempts while waiting; positive
         * @return this builder
         */
        public Builder backoffMin(Duration min) {
            this.backoffMin = Arguments.positive("backoff-min", min);
            return this;
        }

        /**
         * @param max the longest pause between attempts while waiting; at least the minimum
         * @return this builder
         */
        public Builder backoffMax(Duration max) {
            this.backoffMax = Arguments.positive("backoff-max", max);
            return this;
        }

        /**
         * Sets one option given as text, the way it appears in a URI query.
         *
         * @param name one of {@link #OPTION_NAMES}
         * @param value the value, for example {@code "10s"}, {@code "false"}, {@code "billing"}
         * @return this builder
         * @throws IllegalArgumentException if the name is unknown or the value malformed
         */
        public Builder set(String name, String value) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, () -> "value of option '" + name + "'");
            return switch (name) {
                case "lease" -> lease(Durations.parse(name, value));
                case "renew" -> autoRenew(parseBoolean(name, value));
                case "renew-interval" -> renewInterval(Durations.parse(name, value));
                case "prefix" -> prefix(value);
                case "backoff-min" -> backoffMin(Durations.parse(name, value));
                case "backoff-max" -> backoffMax(Durations.parse(name, value));
                default ->
                    throw new IllegalArgumentException(
                            "unknown option '" + name + "'; known options: " + String.join(", ", sorted()));
            };
        }

        /**
         * @return the options
         * @throws IllegalArgumentException if the renewal interval is not shorter than the lease,
         *     or the back-off maximum is shorter than its minimum
         */
        public LockOptions build() {
            if (backoffMax.compareTo(backoffMin) < 0) {
                throw new IllegalArgumentException("backoff-max (" + Durations.format(backoffMax)
                        + ") must not be shorter than backoff-min (" + Durations.format(backoffMin) + ")");
            }
            if (renewInterval != null && renewInterval.compareTo(lease) >= 0) {
                throw new IllegalArgumentException("renew-interval (" + Durations.format(renewInterval)
                        + ") must be shorter than the lease (" + Durations.format(lease) + ")");
            }
            return new LockOptions(this);
        }
    }
}
