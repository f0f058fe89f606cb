package io.locksmith.spi;

import io.locksmith.LockOptions;
import io.locksmith.internal.Redactor;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a provider is given to open a backend: the location (the URI without Locksmith's own
 * query options), the backend's own options, the client-wide {@link LockOptions}, and the sink
 * for events the backend observes on its own.
 *
 * <p>The location may hold credentials: never put it in a message, a log line or a
 * {@code toString()}; use {@link #redactedLocation()}.
 */
public final class BackendConfig {

    private final String scheme;
    private final String location;
    private final Map<String, String> options;
    private final LockOptions lockOptions;
    private final BackendEvents events;

    /**
     * Creates a configuration; the core does this, and so can tests of a provider.
     *
     * @param scheme the URI's scheme, lower case
     * @param location the URI without Locksmith's query options
     * @param options the backend's own options
     * @param lockOptions the client-wide options
     * @param events where the backend reports losses it observes on its own
     */
    public BackendConfig(String scheme, String location, Map<String, String> options,
            LockOptions lockOptions, BackendEvents events) {
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        this.location = Objects.requireNonNull(location, "location");
        this.options = Map.copyOf(Objects.requireNonNull(options, "options"));
        this.lockOptions = Objects.requireNonNull(lockOptions, "lockOptions");
        this.events = Objects.requireNonNull(events, "events");
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
        return Redactor.redact(location);
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

    /** @return the client-wide options: lease, renewal, prefix, back-off */
    public LockOptions lockOptions() {
        return lockOptions;
    }

    /** @return the sink for losses the backend observes on its own (session expiry, watches) */
    public BackendEvents events() {
        return events;
    }

    @Override
    public String toString() {
        return "BackendConfig[" + redactedLocation() + ", options=" + Redactor.redactOptions(options) + "]";
    }
}
