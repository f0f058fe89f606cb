package io.locksmith.internal;

import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockOptions;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import io.locksmith.spi.Redaction;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a URI and options into an open client: finds the provider for the scheme, splits the
 * query into Locksmith's options, the provider's own and (for providers that want them) the
 * client library's, and rejects anything else.
 */
public final class ClientFactory {

    /** The system property read by {@link LockClient#fromEnvironment()}. */
    public static final String URI_PROPERTY = "locksmith.uri";
    /** The environment variable read by {@link LockClient#fromEnvironment()}. */
    public static final String URI_VARIABLE = "LOCKSMITH_URI";

    private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*):.*", Pattern.DOTALL);

    private ClientFactory() {}

    /**
     * Opens a client; see {@link LockClient#open(String, Map)}.
     *
     * @param uri the URI
     * @param base options set in code
     * @param extra options given as text
     * @return the client
     */
    public static LockClient open(String uri, LockOptions base, Map<String, String> extra) {
        return open(uri, base, extra, UnaryOperator.identity());
    }

    /**
     * Opens a client whose backend is wrapped by a decorator; see
     * {@link LockClient#open(String, LockOptions, UnaryOperator)}.
     *
     * @param uri the URI
     * @param base options set in code
     * @param extra options given as text
     * @param decorator wraps the backend the provider opened
     * @return the client
     */
    public static LockClient open(
            String uri, LockOptions base, Map<String, String> extra, UnaryOperator<LockBackend> decorator) {
        Objects.requireNonNull(decorator, "decorator");
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(base, "options");
        Objects.requireNonNull(extra, "options");
        String trimmed = uri.trim();
        Matcher m = SCHEME.matcher(trimmed);
        if (!m.matches()) {
            throw new LockConfigurationException(
                    "malformed lock URI '" + Redaction.redact(uri)
                            + "': it has no scheme; expected something like memory:, redis://host:6379 or jdbc:postgresql://host/db");
        }
        String scheme = m.group(1).toLowerCase(Locale.ROOT);
        LockProvider provider =
                ProviderRegistry.load().forScheme(scheme, System.getProperty(ProviderRegistry.FORCE_PROPERTY));
        return open(provider, scheme, trimmed, base, extra, decorator);
    }

    /** Opens a client with a given provider (the part of {@link #open(String, LockOptions, Map)} after discovery). */
    static LockClient open(
            LockProvider provider,
            String scheme,
            String uri,
            LockOptions base,
            Map<String, String> extra,
            UnaryOperator<LockBackend> decorator) {
        String redacted = Redaction.redact(uri);
        ParsedUri parsed = ParsedUri.parse(uri, redacted);
        LockOptions.Builder options = base.toBuilder();
        Map<String, String> backendOptions = new HashMap<>();
        List<String> passThrough = new ArrayList<>();
        for (Map.Entry<String, String> e : extra.entrySet()) {
            Objects.requireNonNull(e.getKey(), "option name");
            if (parsed.params().containsKey(e.getKey())) {
                throw new LockConfigurationException("option '" + e.getKey() + "' is given both in the URI '" + redacted
                        + "' and in the options map; give it once");
            }
            classify(provider, e.getKey(), e.getValue(), options, backendOptions, null, redacted);
        }
        for (Map.Entry<String, String> e : parsed.params().entrySet()) {
            classify(provider, e.getKey(), e.getValue(), options, backendOptions, passThrough, redacted);
        }
        LockOptions lockOptions;
        try {
            lockOptions = options.build();
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException("invalid options for '" + redacted + "': " + e.getMessage());
        }
        String location = parsed.rebuild(passThrough);
        return DefaultLockClient.open(provider, scheme, location, backendOptions, lockOptions, decorator);
    }

    private static void classify(
            LockProvider provider,
            String name,
            String value,
            LockOptions.Builder options,
            Map<String, String> backendOptions,
            List<String> passThrough,
            String redacted) {
        if (LockOptions.OPTION_NAMES.contains(name)) {
            try {
                options.set(name, value);
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException("invalid option in '" + redacted + "': " + e.getMessage());
            }
        } else if (provider.optionNames().contains(name)) {
            backendOptions.put(name, value);
        } else if (passThrough != null && provider.passesUnknownQueryParameters()) {
            passThrough.add(name);
        } else {
            TreeSet<String> known = new TreeSet<>(LockOptions.OPTION_NAMES);
            known.addAll(provider.optionNames());
            throw new LockConfigurationException("unknown option '" + name + "' for the " + provider.name()
                    + " lock provider (" + redacted + "); known options: " + String.join(", ", known));
        }
    }

    /**
     * Wraps a backend built by a provider module; see {@link LockClient#of}.
     *
     * @param backend the backend
     * @param options the options
     * @return the client
     */
    public static LockClient wrap(Function<BackendContext, LockBackend> backend, LockOptions options) {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(options, "options");
        return DefaultLockClient.wrap(backend, options);
    }

    /** @return a client from {@code -Dlocksmith.uri} or {@code LOCKSMITH_URI} */
    public static LockClient fromEnvironment() {
        String uri = System.getProperty(URI_PROPERTY);
        if (uri == null || uri.isBlank()) {
            uri = System.getenv(URI_VARIABLE);
        }
        if (uri == null || uri.isBlank()) {
            throw new LockConfigurationException("no lock URI configured: set the system property -D" + URI_PROPERTY
                    + "=URI or the environment variable " + URI_VARIABLE + "=URI (for example memory: or "
                    + "redis://localhost:6379)");
        }
        return open(uri, LockOptions.defaults(), Map.of());
    }

    /**
     * @param properties option properties
     * @return them as a map of strings
     */
    public static Map<String, String> toMap(Properties properties) {
        Objects.requireNonNull(properties, "options");
        Map<String, String> map = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) {
            map.put(name, properties.getProperty(name));
        }
        return map;
    }

    /** A URI split into the part before its query, its parameters, and its fragment. */
    record ParsedUri(String base, String rawQuery, Map<String, String> params, String fragment) {

        static ParsedUri parse(String uri, String redacted) {
            String fragment = "";
            String rest = uri;
            int q = rest.indexOf('?');
            int hash = rest.indexOf('#', q < 0 ? 0 : q);
            if (hash >= 0) {
                fragment = rest.substring(hash);
                rest = rest.substring(0, hash);
            }
            if (q < 0) {
                return new ParsedUri(rest, "", Map.of(), fragment);
            }
            String query = rest.substring(q + 1);
            Map<String, String> params = new LinkedHashMap<>();
            for (String pair : query.split("&", -1)) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new LockConfigurationException("malformed lock URI '" + redacted + "': query parameter '"
                            + Redaction.redact("?" + pair).substring(1) + "' is not name=value");
                }
                String name = decode(pair.substring(0, eq), redacted);
                if (params.put(name, decode(pair.substring(eq + 1), redacted)) != null) {
                    throw new LockConfigurationException(
                            "malformed lock URI '" + redacted + "': option '" + name + "' is given twice");
                }
            }
            return new ParsedUri(rest.substring(0, q), query, params, fragment);
        }

        /** @return the URI with only the named parameters left in its query */
        String rebuild(List<String> keep) {
            if (keep.isEmpty()) {
                return base + fragment;
            }
            List<String> pairs = new ArrayList<>();
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && keep.contains(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8))) {
                    pairs.add(pair);
                }
            }
            return base + "?" + String.join("&", pairs) + fragment;
        }

        private static String decode(String s, String redacted) {
            try {
                return URLDecoder.decode(s, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException("malformed lock URI '" + redacted + "': bad percent-encoding");
            }
        }
    }
}
