package io.locksmith.internal;

import java.util.Optional;
import java.util.ServiceConfigurationError;

/**
 * Recognises a backend that failed because its classes do not fit together, and says what to do.
 *
 * <p>A backend module runs on its client library's dependencies (Netty, Reactor, gRPC, Jackson).
 * When an application's build resolves another version of one of them than the module was built
 * with, or leaves one out, the JVM reports it as a {@link LinkageError} ({@link NoClassDefFoundError},
 * {@link NoSuchMethodError}, {@link ExceptionInInitializerError}) or, inside a library's own
 * service lookup, a {@link ServiceConfigurationError}. Retrying never helps and the stack trace
 * does not say which build line to change, so such a failure becomes a configuration error whose
 * message names the class and the fix.
 */
final class LinkageAdvice {

    private static final String FIX = "a class it needs is missing, or comes from another version of its library than"
            + " the one it was built with (two versions of Netty, Reactor, gRPC or Jackson on one class path do this):"
            + " import io.locksmith:locksmith-bom in your build's dependencyManagement to align them, or give every"
            + " module of that library one version (mvn dependency:tree shows the versions; see docs/install.md)";

    private LinkageAdvice() {}

    /**
     * @param failure what a provider threw
     * @return the linkage error in its cause chain, or a service configuration error, if there is one
     */
    static Optional<Throwable> find(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof LinkageError || t instanceof ServiceConfigurationError) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * @param linkage a linkage or service configuration error
     * @return the error, its missing class or failed initializer, and the fix, as one sentence
     */
    static String describe(Throwable linkage) {
        return what(linkage) + "; " + FIX;
    }

    /** @return the error's type and detail, with a missing class in its dotted name, and what caused it */
    static String what(Throwable e) {
        String detail = e.getMessage();
        if (e instanceof NoClassDefFoundError && detail != null) {
            detail = detail.replace('/', '.');
        }
        String what = detail == null || detail.isBlank()
                ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + detail;
        Throwable cause = e.getCause();
        if (cause == null || cause == e) {
            return what;
        }
        // a class whose initializer failed once throws "Could not initialize class" ever after; the cause says why
        return detail == null || detail.isBlank()
                ? what + ": " + what(cause)
                : what + " (caused by " + what(cause) + ")";
    }
}
