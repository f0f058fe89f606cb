package io.locksmith.internal;

import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.util.ServiceConfigurationError;
import java.util.Set;

/**
 * A provider as the registry hands it out: the same provider, except that a backend failing to
 * open because its classes do not link (see {@link LinkageAdvice}) throws a
 * {@link LockConfigurationException} naming the provider, its module and the fix, instead of an
 * {@link Error} that escapes every {@code catch (LockException e)} in the application.
 */
final class LinkageGuard implements LockProvider {

    private final LockProvider provider;
    private final String origin;

    /**
     * @param provider the provider found by discovery
     * @param origin where it comes from, for messages: its class, module and jar
     */
    LinkageGuard(LockProvider provider, String origin) {
        this.provider = provider;
        this.origin = origin;
    }

    @Override
    public String name() {
        return provider.name();
    }

    @Override
    public Set<String> schemes() {
        return provider.schemes();
    }

    @Override
    public Set<String> optionNames() {
        return provider.optionNames();
    }

    @Override
    public boolean passesUnknownQueryParameters() {
        return provider.passesUnknownQueryParameters();
    }

    @Override
    public LockBackend open(BackendContext config) {
        try {
            return provider.open(config);
        } catch (LockConfigurationException e) {
            throw e;
        } catch (RuntimeException | LinkageError | ServiceConfigurationError e) {
            Throwable linkage = LinkageAdvice.find(e).orElse(null);
            if (linkage == null) {
                throw e;
            }
            throw new LockConfigurationException(
                    "the " + provider.name() + " lock provider (" + origin + ") cannot open a '" + config.scheme()
                            + "' backend: " + LinkageAdvice.describe(linkage),
                    e);
        }
    }

    @Override
    public String toString() {
        return provider.toString();
    }
}
