package io.locksmith.tck;

import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendConfig;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens the kit's test backends by URI, for the runner's tests: {@code flawed://NONE} is the
 * sound provider, {@code flawed://FLAW} one with that {@link Flaw}. Clients of one URI share one
 * {@link MemoryServer}, as clients of one server do.
 */
public final class FlawedProvider implements LockProvider {

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
    public LockBackend open(BackendConfig config) {
        String location = config.location();
        String name = location.substring(location.indexOf("//") + 2).toUpperCase(Locale.ROOT);
        Flaw flaw;
        try {
            flaw = Flaw.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException("no flaw named '" + name + "' in " + config.redactedLocation());
        }
        MemoryServer server = SERVERS.computeIfAbsent(flaw.name(), f -> new MemoryServer());
        return flaw.wrap(new MemoryBackend(server, "flawed://" + flaw));
    }
}
