package io.locksmith.internal;

import io.locksmith.LockConfigurationException;
import io.locksmith.spi.LockProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds lock providers through {@link ServiceLoader} and picks the one for a scheme, by the rules
 * in the docs: a provider that fails to load is reported and skipped; a system property can force
 * one; no provider, or two, for a scheme is an error that says what to do. The provider it hands
 * out is wrapped in a {@link LinkageGuard}, so that a backend whose classes do not link fails to
 * open with a {@link LockConfigurationException} too.
 */
final class ProviderRegistry {

    /** The system property naming the provider to use (its {@link LockProvider#name()} or class name). */
    static final String FORCE_PROPERTY = "locksmith.provider";

    private static final Logger log = LoggerFactory.getLogger(ProviderRegistry.class);

    private static final Map<String, String> ARTIFACTS = Map.ofEntries(
            Map.entry("memory", "lock-memory"),
            Map.entry("redis", "lock-redis"),
            Map.entry("rediss", "lock-redis"),
            Map.entry("redis-sentinel", "lock-redis"),
            Map.entry("redis-cluster", "lock-redis"),
            Map.entry("etcd", "lock-etcd"),
            Map.entry("etcds", "lock-etcd"),
            Map.entry("zookeeper", "lock-zookeeper"),
            Map.entry("zk", "lock-zookeeper"),
            Map.entry("azblob", "lock-azure-blob"),
            Map.entry("jdbc", "lock-jdbc"));

    private final List<LockProvider> providers;
    private final List<String> failures;

    private ProviderRegistry(List<LockProvider> providers, List<String> failures) {
        this.providers = providers;
        this.failures = failures;
    }

    /** @return the providers visible to the context class loader (or this library's), loaded now */
    static ProviderRegistry load() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = ProviderRegistry.class.getClassLoader();
        }
        List<LockProvider> found = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        Iterator<LockProvider> it =
                ServiceLoader.load(LockProvider.class, loader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                found.add(it.next());
            } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                errors.add(e);
            }
        }
        List<String> failed = errors.isEmpty() ? List.of() : LoadFailures.describe(errors, found, loader);
        for (int i = 0; i < failed.size(); i++) {
            log.warn("a lock provider failed to load and is skipped: {}", failed.get(i), errors.get(i));
        }
        return new ProviderRegistry(List.copyOf(found), List.copyOf(failed));
    }

    /** Builds a registry from given providers (tests). */
    static ProviderRegistry of(List<LockProvider> providers) {
        return new ProviderRegistry(List.copyOf(providers), List.of());
    }

    /**
     * @param scheme a URI scheme, lower case
     * @param forced the forced provider's name or class name, or null
     * @return the one provider for the scheme
     * @throws LockConfigurationException if none or several claim it, or the forced one is missing
     */
    LockProvider forScheme(String scheme, String forced) {
        List<LockProvider> candidates =
                providers.stream().filter(p -> p.schemes().contains(scheme)).toList();
        if (forced != null && !forced.isBlank()) {
            return forcedProvider(scheme, forced.trim());
        }
        if (candidates.size() == 1) {
            return guarded(candidates.get(0), scheme);
        }
        if (candidates.isEmpty()) {
            throw new LockConfigurationException(noProviderMessage(scheme));
        }
        throw new LockConfigurationException("several lock providers claim the scheme '" + scheme + "': "
                + candidates.stream().map(ProviderRegistry::describe).collect(Collectors.joining(", "))
                + "; remove all but one from the class path, or choose one with -D" + FORCE_PROPERTY + "=NAME");
    }

    private LockProvider forcedProvider(String scheme, String forced) {
        LockProvider p = providers.stream()
                .filter(c -> c.name().equals(forced) || c.getClass().getName().equals(forced))
                .findFirst()
                .orElseThrow(() -> new LockConfigurationException("the lock provider '" + forced + "' forced by -D"
                        + FORCE_PROPERTY + " is not on the class path; providers found: " + found()));
        if (!p.schemes().contains(scheme)) {
            throw new LockConfigurationException("the lock provider " + describe(p) + " forced by -D" + FORCE_PROPERTY
                    + " does not open the scheme '" + scheme + "'");
        }
        return guarded(p, scheme);
    }

    private static LockProvider guarded(LockProvider p, String scheme) {
        StringBuilder origin = new StringBuilder(p.getClass().getName());
        String artifact = ARTIFACTS.get(scheme);
        if (artifact != null && p.getClass().getName().startsWith("io.locksmith.")) {
            origin.append(", module io.locksmith:").append(artifact);
        }
        LoadFailures.jarOf(p.getClass())
                .ifPresent(jar -> origin.append(", from ").append(jar));
        return new LinkageGuard(p, origin.toString());
    }

    private String noProviderMessage(String scheme) {
        StringBuilder m = new StringBuilder("no lock provider for the scheme '")
                .append(scheme)
                .append("'; ");
        m.append("providers found: ").append(found());
        if (!failures.isEmpty()) {
            m.append("; providers that failed to load: ").append(String.join("; ", failures));
            m.append("; if the provider for '").append(scheme).append("' is not among them,");
        } else {
            m.append(";");
        }
        String artifact = ARTIFACTS.get(scheme);
        if (artifact != null) {
            m.append(" add the artifact io.locksmith:").append(artifact).append(" to the class path");
        } else {
            m.append(" add the artifact of a provider that opens '")
                    .append(scheme)
                    .append(":' URIs");
        }
        return m.append(" (see docs/providers.md)").toString();
    }

    private String found() {
        if (providers.isEmpty()) {
            return "none";
        }
        return providers.stream().map(ProviderRegistry::describe).collect(Collectors.joining(", "));
    }

    private static String describe(LockProvider p) {
        return p.name() + " (" + p.getClass().getName() + ", schemes " + new TreeSet<>(p.schemes()) + ")";
    }
}
