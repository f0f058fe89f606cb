package io.locksmith.internal;

import io.locksmith.spi.LockProvider;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says, for each provider {@link java.util.ServiceLoader} could not load, which one it was, which
 * jar declared it, why it failed and, when its classes do not link, what to change.
 *
 * <p>A {@link ServiceConfigurationError} names the provider class; a {@link LinkageError} thrown
 * while the loader resolves a provider class does not, so the providers declared in the
 * {@code META-INF/services} files that did not load stand in for it.
 */
final class LoadFailures {

    private static final String SERVICES = "META-INF/services/" + LockProvider.class.getName();
    private static final Pattern PROVIDER = Pattern.compile("Provider (\\S+) ");

    private LoadFailures() {}

    /**
     * @param errors what the service loader threw, in order
     * @param loaded the providers it did load
     * @param loader the class loader it searched
     * @return one description per error
     */
    static List<String> describe(List<Throwable> errors, List<LockProvider> loaded, ClassLoader loader) {
        Map<String, String> declared = declared(loader);
        List<String> unnamed = new ArrayList<>(declared.keySet());
        loaded.forEach(p -> unnamed.remove(p.getClass().getName()));
        errors.forEach(e -> named(e).ifPresent(unnamed::remove));

        List<String> descriptions = new ArrayList<>();
        for (Throwable error : errors) {
            StringBuilder d = new StringBuilder();
            Optional<String> provider =
                    named(error).or(() -> unnamed.size() == 1 ? Optional.of(unnamed.get(0)) : Optional.empty());
            if (provider.isPresent()) {
                d.append(provider.get());
                String jar = declared.get(provider.get());
                if (jar != null) {
                    d.append(" (declared in ").append(jar).append(')');
                }
            } else if (!unnamed.isEmpty()) {
                d.append("one of ").append(String.join(", ", unnamed));
            } else {
                d.append("a provider");
            }
            Throwable cause =
                    error instanceof ServiceConfigurationError && error.getCause() != null ? error.getCause() : error;
            d.append(": ")
                    .append(LinkageAdvice.find(cause)
                            .map(LinkageAdvice::describe)
                            .orElseGet(() -> LinkageAdvice.what(cause)));
            descriptions.add(d.toString());
        }
        return descriptions;
    }

    /**
     * @param type a class
     * @return the file name of the jar or directory it was loaded from, if the JVM tells
     */
    static Optional<String> jarOf(Class<?> type) {
        try {
            CodeSource source = type.getProtectionDomain().getCodeSource();
            return source == null || source.getLocation() == null
                    ? Optional.empty()
                    : Optional.of(lastSegment(source.getLocation().getPath()));
        } catch (SecurityException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> named(Throwable error) {
        if (!(error instanceof ServiceConfigurationError) || error.getMessage() == null) {
            return Optional.empty();
        }
        Matcher m = PROVIDER.matcher(error.getMessage());
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** @return each provider class named in a services file, with the jar (or directory) holding the file */
    private static Map<String, String> declared(ClassLoader loader) {
        Map<String, String> declared = new LinkedHashMap<>();
        try {
            for (URL url : Collections.list(loader.getResources(SERVICES))) {
                String path = url.getPath();
                int bang = path.indexOf("!/");
                String jar = lastSegment(
                        bang >= 0
                                ? path.substring(0, bang)
                                : path.substring(0, Math.max(0, path.length() - SERVICES.length() - 1)));
                try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
                    in.lines()
                            .map(line -> line.replaceAll("#.*", "").trim())
                            .filter(line -> !line.isEmpty())
                            .forEach(name -> declared.putIfAbsent(name, jar));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the descriptions lose the jar names, nothing else
        }
        return declared;
    }

    private static String lastSegment(String path) {
        String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return p.substring(p.lastIndexOf('/') + 1);
    }
}
