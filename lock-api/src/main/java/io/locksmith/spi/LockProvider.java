package io.locksmith.spi;

import java.util.Set;

/**
 * A lock backend's entry in {@link java.util.ServiceLoader}: it claims URI schemes and opens a
 * {@link LockBackend} for a URI.
 *
 * <p>Register an implementation with a public no-argument constructor in
 * {@code META-INF/services/io.locksmith.spi.LockProvider} and, on the module path, with
 * {@code provides io.locksmith.spi.LockProvider with ...}. Constructing a provider must be cheap
 * and must not connect anywhere.
 */
public interface LockProvider {

    /** @return a short name for messages, such as {@code "redis"} */
    String name();

    /** @return the URI schemes this provider opens, lower case, such as {@code redis, rediss} */
    Set<String> schemes();

    /**
     * The names of the backend's own options (beyond {@link io.locksmith.LockOptions#OPTION_NAMES}),
     * accepted in the URI's query or the options map. The core rejects any other name before
     * calling {@link #open(BackendContext)}, unless {@link #passesUnknownQueryParameters()}.
     *
     * @return the option names; empty by default
     */
    default Set<String> optionNames() {
        return Set.of();
    }

    /**
     * Whether query parameters that are neither Locksmith's nor the provider's own are left in the
     * location for the backend's client library (a JDBC driver's {@code sslmode}, say) instead of
     * being rejected.
     *
     * @return {@code false} by default
     */
    default boolean passesUnknownQueryParameters() {
        return false;
    }

    /**
     * Opens a backend. May connect; must fail within the backend's connection timeout.
     *
     * @param context the location, options, event sink and the client's scheduler and clock
     * @return the open backend
     * @throws io.locksmith.LockConfigurationException if the configuration is unusable
     * @throws io.locksmith.LockBackendException if the backend cannot be reached
     */
    LockBackend open(BackendContext context);
}
