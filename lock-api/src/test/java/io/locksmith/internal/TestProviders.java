package io.locksmith.internal;

import io.locksmith.spi.BackendContext;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockProvider;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/** Providers registered through this module's test {@code META-INF/services}, for discovery tests. */
final class TestProviders {

    private TestProviders() {}

    /** A provider of one name and one scheme whose backends are {@link TestBackend}s. */
    abstract static class Fixed implements LockProvider {
        private final String name;
        private final String scheme;

        Fixed(String name, String scheme) {
            this.name = name;
            this.scheme = scheme;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Set<String> schemes() {
            return Set.of(scheme);
        }

        @Override
        public LockBackend open(BackendContext config) {
            return new TestBackend().attach(config);
        }
    }

    /** Opens {@code test:} URIs and remembers the configuration it was given. */
    public static final class Scripted extends Fixed {
        static final AtomicReference<BackendContext> LAST = new AtomicReference<>();

        public Scripted() {
            super("scripted", "test");
        }

        @Override
        public Set<String> optionNames() {
            return Set.of("user", "password", "pool-size");
        }

        @Override
        public LockBackend open(BackendContext config) {
            LAST.set(config);
            return super.open(config);
        }
    }

    /** Fails to load, as a provider with a missing dependency would. */
    public static final class Broken extends Fixed {
        public Broken() {
            super("broken", "broken");
            throw new IllegalStateException("the broken provider's client library is missing");
        }
    }

    /** One of two providers that claim the same scheme. */
    public static final class DuplicateOne extends Fixed {
        public DuplicateOne() {
            super("dup-one", "dup");
        }
    }

    /** The other of two providers that claim the same scheme. */
    public static final class DuplicateTwo extends Fixed {
        public DuplicateTwo() {
            super("dup-two", "dup");
        }
    }

    /** Opens as a backend whose client library is missing a class: Lettuce beside Netty 4.1, say. */
    public static final class MissingClass extends Fixed {
        public MissingClass() {
            super("missing-class", "missing-class");
        }

        @Override
        public LockBackend open(BackendContext config) {
            throw new NoClassDefFoundError("io/netty/channel/epoll/EpollIoHandler");
        }
    }

    /** Opens as a backend whose client library wrapped the missing class in its own exception. */
    public static final class WrappedMissingClass extends Fixed {
        public WrappedMissingClass() {
            super("wrapped-missing-class", "wrapped-missing-class");
        }

        @Override
        public LockBackend open(BackendContext config) {
            throw new io.locksmith.LockBackendException(
                    "cannot connect to wrapped-missing-class://h",
                    new IllegalStateException(
                            "connection failed", new NoClassDefFoundError("io/netty/channel/epoll/EpollIoHandler")));
        }
    }

    /** Opens as a backend whose client library fails in a static initializer. */
    public static final class FailingInitializer extends Fixed {
        public FailingInitializer() {
            super("failing-initializer", "failing-initializer");
        }

        @Override
        public LockBackend open(BackendContext config) {
            return BadStatics.backend();
        }
    }

    /** A client library class whose static initializer throws, as one built for another JDK or library might. */
    static final class BadStatics {
        static final LockBackend BACKEND = create();

        private static LockBackend create() {
            throw new IllegalStateException("the client library's static initializer failed");
        }

        static LockBackend backend() {
            return BACKEND;
        }
    }

    /** Fails while ServiceLoader links it: its class cannot be initialised. */
    public static final class Unlinkable extends Fixed {
        static final String SCHEME = scheme();

        public Unlinkable() {
            super("unlinkable", SCHEME);
        }

        private static String scheme() {
            throw new IllegalStateException("the unlinkable provider's client library does not link");
        }
    }
}
