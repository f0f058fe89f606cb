package io.locksmith.spi;

import io.locksmith.LockConfigurationException;
import io.locksmith.LockOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a provider is given to open a backend, and what the backend shares with its client: the
 * location (the URI without Locksmith's own query options) and its parsed {@link #address()},
 * the backend's own options with typed accessors, the client-wide {@link LockOptions}, the
 * client's {@link #scheduler()} and {@link #ticker()}, the {@link #events()} sink, and the core's
 * table of {@link #heldLeases()}.
 *
 * <p>The location may hold credentials: never put it in a message, a log line or a
 * {@code toString()}; use {@link #redactedLocation()}. Every option accessor's error names the
 * option, the redacted location and what was expected, and never shows a secret option's value.
 */
public final class BackendContext {

    private final String scheme;
    private final String location;
    private final Map<String, String> options;
    private final LockOptions lockOptions;
    private final BackendEvents events;
    private final BackendScheduler scheduler;
    private final Ticker ticker;
    private final HeldLeases heldLeases;
    private BackendAddress address;

    private BackendContext(Builder b) {
        this.scheme = b.scheme;
        this.location = b.location;
        this.options = Map.copyOf(b.options);
        this.lockOptions = b.lockOptions;
        this.events = Objects.requireNonNull(b.events, "events");
        this.scheduler = Objects.requireNonNull(b.scheduler, "scheduler");
        this.ticker = b.ticker;
        this.heldLeases = Objects.requireNonNull(b.heldLeases, "heldLeases");
    }

    /**
     * Starts a context; the core makes one for every client it opens.
     *
     * @param scheme the URI's scheme, lower case
     * @param location the URI without Locksmith's query options
     * @return a builder
     */
    public static Builder builder(String scheme, String location) {
        return new Builder(scheme, location);
    }

    /** @return the URI's scheme, lower case */
    public String scheme() {
        return scheme;
    }

    /** @return the URI without Locksmith's query options; may contain credentials */
    public String location() {
        return location;
    }

    /** @return the location with passwords, keys and tokens masked, fit for messages */
    public String redactedLocation() {
        return Redaction.redact(location);
    }

    /**
     * @return the location parsed as {@code scheme://user:password@host:port,.../path?query#fragment}
     * @throws LockConfigurationException if it does not have that form
     */
    public synchronized BackendAddress address() {
        if (address == null) {
            address = BackendAddress.parse(location);
        }
        return address;
    }

    /** @return the backend's own options, by name */
    public Map<String, String> options() {
        return options;
    }

    /**
     * @param name an option name the provider declared
     * @return the option's value, if given
     */
    public Optional<String> option(String name) {
        return Optional.ofNullable(options.get(name));
    }

    /**
     * @param name an option name the provider declared
     * @param defaultValue the value if the option is not given
     * @return the option as a positive duration ({@code 500ms}, {@code 5s}, {@code PT5S})
     * @throws LockConfigurationException if it is not one
     */
    public Duration durationOption(String name, Duration defaultValue) {
        String v = options.get(name);
        if (v == null) {
            return defaultValue;
        }
        Duration d;
        try {
            d = Durations.parse(name, v);
        } catch (IllegalArgumentException e) {
            throw invalid(name, v, "a positive duration such as 500ms, 5s or PT5S");
        }
        if (d.isZero() || d.isNegative()) {
            throw invalid(name, v, "a positive duration such as 500ms, 5s or PT5S");
        }
        return d;
    }

    /**
     * @param name an option name the provider declared
     * @param defaultValue the value if the option is not given
     * @param min the least value allowed
     * @return the option as an integer of at least {@code min}
     * @throws LockConfigurationException if it is not one
     */
    public int intOption(String name, int defaultValue, int min) {
        String v = options.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw invalid(name, v, "a whole number of at least " + min);
    }

    /**
     * @param name an option name the provider declared
     * @param defaultValue the value if the option is not given
     * @return the option as {@code true} or {@code false} (any case)
     * @throws LockConfigurationException if it is neither
     */
    public boolean booleanOption(String name, boolean defaultValue) {
        String v = options.get(name);
        if (v == null) {
            return defaultValue;
        }
        if (v.trim().equalsIgnoreCase("true")) {
            return true;
        }
        if (v.trim().equalsIgnoreCase("false")) {
            return false;
        }
        throw invalid(name, v, "true or false");
    }

    /**
     * @param name an option name the provider declared
     * @return the option as a readable regular file, if given
     * @throws LockConfigurationException if it names no readable file
     */
    public Optional<Path> fileOption(String name) {
        String v = options.get(name);
        if (v == null) {
            return Optional.empty();
        }
        Path p = Path.of(v.trim());
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw invalid(name, v, "a readable file");
        }
        return Optional.of(p);
    }

    /**
     * @param name an option name the provider declared
     * @return the option as a secret, if given; its value never reaches a message
     */
    public Optional<Secret> secretOption(String name) {
        return option(name).map(Secret::of);
    }

    /**
     * @param name the option
     * @param value its value as given
     * @param expected what it must be
     * @return the error every accessor throws: names the option and the redacted location, shows
     *     the value unless the option looks secret
     */
    public LockConfigurationException invalid(String name, String value, String expected) {
        String shown = Redaction.isSecret(name) ? Redaction.MASK : value;
        return new LockConfigurationException(
                "option '" + name + "' of " + redactedLocation() + " must be " + expected + ", was '" + shown + "'");
    }

    /** @return the client-wide options: lease, renewal, prefix, back-off */
    public LockOptions lockOptions() {
        return lockOptions;
    }

    /** @return the sink for what the backend observes on its own: losses, releases */
    public BackendEvents events() {
        return events;
    }

    /** @return the client's scheduler, for the backend's delayed and periodic work */
    public BackendScheduler scheduler() {
        return scheduler;
    }

    /** @return the client's monotonic clock; every nanosecond reading the backend reports comes from it */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the core's table of the leases this client holds */
    public HeldLeases heldLeases() {
        return heldLeases;
    }

    @Override
    public String toString() {
        return "BackendContext[" + redactedLocation() + ", options=" + Redaction.redactOptions(options) + "]";
    }

    /** Builds a {@link BackendContext}. */
    public static final class Builder {
        private final String scheme;
        private final String location;
        private Map<String, String> options = Map.of();
        private LockOptions lockOptions = LockOptions.defaults();
        private BackendEvents events;
        private BackendScheduler scheduler;
        private Ticker ticker = Ticker.SYSTEM;
        private HeldLeases heldLeases;

        private Builder(String scheme, String location) {
            this.scheme = Objects.requireNonNull(scheme, "scheme");
            this.location = Objects.requireNonNull(location, "location");
        }

        /**
         * @param options the backend's own options
         * @return this builder
         */
        public Builder options(Map<String, String> options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * @param lockOptions the client-wide options
         * @return this builder
         */
        public Builder lockOptions(LockOptions lockOptions) {
            this.lockOptions = Objects.requireNonNull(lockOptions, "lockOptions");
            return this;
        }

        /**
         * @param events where the backend reports what it observes on its own
         * @return this builder
         */
        public Builder events(BackendEvents events) {
            this.events = events;
            return this;
        }

        /**
         * @param scheduler the client's scheduler
         * @return this builder
         */
        public Builder scheduler(BackendScheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * @param ticker the client's clock
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * @param heldLeases the core's table of held leases
         * @return this builder
         */
        public Builder heldLeases(HeldLeases heldLeases) {
            this.heldLeases = heldLeases;
            return this;
        }

        /** @return the context */
        public BackendContext build() {
            return new BackendContext(this);
        }
    }
}
