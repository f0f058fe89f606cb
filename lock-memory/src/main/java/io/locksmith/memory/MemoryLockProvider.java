package io.locksmith.memory;

import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Opens {@code memory:} (a store private to the client) and {@code memory://NAME} (a store shared
 * by every client of that name in this JVM). Found through {@link java.util.ServiceLoader}.
 */
public final class MemoryLockProvider implements LockProvider {

    private static final Pattern GROUP = Pattern.compile("memory://([A-Za-z0-9._-]{1,128})/?");

    /** Creates the provider; {@link java.util.ServiceLoader} does this. */
    public MemoryLockProvider() {}

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("memory");
    }

    @Override
    public LockBackend open(BackendContext context) {
        String location = context.location();
        if (location.equalsIgnoreCase("memory:")) {
            return new MemoryBackend(new MemoryStore(), "memory:", context.events());
        }
        Matcher m = GROUP.matcher(location);
        if (m.matches()) {
            return new MemoryBackend(MemoryStore.group(m.group(1)), "memory://" + m.group(1), context.events());
        }
        throw new LockConfigurationException("malformed memory URI '" + context.redactedLocation()
                + "': use memory: for a store of the client's own, or memory://NAME (letters, digits, . _ -)"
                + " for one shared by every client of that name in this JVM");
    }
}
