package io.locksmith.tck;

import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendAddress;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens the kit's test backends by URI, for the runner's tests and the credential rule:
 * {@code flawed://NONE} is the sound provider, {@code flawed://FLAW} one with that {@link Flaw}.
 * Clients of one URI share one {@link MemoryServer}, as clients of one server do. A password in
 * the user-info must be {@link #PASSWORD}, or opening fails as a refused login does; a port means
 * a server that does not answer there.
 */
public final class FlawedProvider implements LockProvider {

    /** The one password the flawed servers accept. */
    static final String PASSWORD = "kit-valid-s3cret";

    private static final Map<String, MemoryServer> SERVERS = new ConcurrentHashMap<>();

    /** Creates the provider; {@link java.util.ServiceLoader} does this. */
    public FlawedProvider() {}

    @Override
    public String name() {
        return "flawed";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("flawed");
    }

    @Override
    public LockBackend open(BackendContext context) {
        BackendAddress address = context.address();
        String name = address.host().host().toUpperCase(Locale.ROOT);
        Flaw flaw;
        try {
            flaw = Flaw.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException("no flaw named '" + name + "' in " + context.redactedLocation());
        }
        if (address.host().port() > 0) {
            throw new LockBackendException("no flawed server answers at " + flaw.shown(context));
        }
        if (address.password().filter(p -> !p.reveal().equals(PASSWORD)).isPresent()) {
            throw new LockConfigurationException("the flawed server refused the login of " + flaw.shown(context));
        }
        MemoryServer server = SERVERS.computeIfAbsent(flaw.name(), f -> new MemoryServer());
        return flaw.wrap(new MemoryBackend(server, "flawed://" + flaw, context));
    }
}
