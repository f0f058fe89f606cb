package io.locksmith.internal;

import io.locksmith.spi.BackendConfig;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/** Providers registered through this module's test {@code META-INF/services}, for discovery tests. */
final class TestProviders {

    private TestProviders() {}

    /** Opens {@code test:} URIs and remembers the configuration it was given. */
    public static final class Scripted implements LockProvider {
        static final AtomicReference<BackendConfig> LAST = new AtomicReference<>();

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public Set<String> schemes() {
            return Set.of("test");
        }

        @Override
        public Set<String> optionNames() {
            return Set.of("user", "password", "pool-size");
        }

        @Override
        public LockBackend open(BackendConfig config) {
            LAST.set(config);
            return new TestBackend();
        }
    }

    /** Fails to load, as a provider with a missing dependency would. */
    public static final class Broken implements LockProvider {
        public Broken() {
            throw new IllegalStateException("the broken provider's client library is missing");
        }

        @Override
        public String name() {
            return "broken";
        }

        @Override
        public Set<String> schemes() {
            return Set.of("broken");
        }

        @Override
        public LockBackend open(BackendConfig config) {
            throw new UnsupportedOperationException();
        }
    }

    /** One of two providers that claim the same scheme. */
    public static final class DuplicateOne implements LockProvider {
        @Override
        public String name() {
            return "dup-one";
        }

        @Override
        public Set<String> schemes() {
            return Set.of("dup");
        }

        @Override
        public LockBackend open(BackendConfig config) {
            return new TestBackend();
        }
    }

    /** The other of two providers that claim the same scheme. */
    public static final class DuplicateTwo implements LockProvider {
        @Override
        public String name() {
            return "dup-two";
        }

        @Override
        public Set<String> schemes() {
            return Set.of("dup");
        }

        @Override
        public LockBackend open(BackendConfig config) {
            return new TestBackend();
        }
    }
}
