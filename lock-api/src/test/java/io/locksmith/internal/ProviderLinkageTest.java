package io.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.locksmith.LockClient;
import io.locksmith.LockConfigurationException;
import io.locksmith.spi.LockProvider;
import java.util.List;
import java.util.ServiceConfigurationError;
import org.junit.jupiter.api.Test;

/**
 * A backend whose classes are missing or clash (two versions of Netty on one class path, a static
 * initializer that fails) is a configuration error the user can fix, reported as a
 * {@link LockConfigurationException} that names the provider and the fix; never a raw
 * {@link Error}.
 */
class ProviderLinkageTest {

    @Test
    void aMissingClassWhenABackendOpensIsAConfigurationErrorNamingTheProviderAndTheFix() {
        Throwable thrown = catchThrowable(() -> LockClient.open("missing-class://host"));

        assertThat(thrown)
                .as("opening a backend whose open() throws NoClassDefFoundError")
                .isInstanceOf(LockConfigurationException.class);
        assertThat(thrown.getMessage())
                .as("the message of %s", thrown)
                .contains(
                        "missing-class",
                        TestProviders.MissingClass.class.getName(),
                        "io.netty.channel.epoll.EpollIoHandler",
                        "io.locksmith:locksmith-bom");
        assertThat(thrown.getCause()).as("the cause of %s", thrown).isInstanceOf(NoClassDefFoundError.class);
    }

    @Test
    void aMissingClassWrappedByTheClientLibraryIsAConfigurationErrorToo() {
        Throwable thrown = catchThrowable(() -> LockClient.open("wrapped-missing-class://host"));

        assertThat(thrown)
                .as("opening a backend that failed with a wrapped NoClassDefFoundError")
                .isInstanceOf(LockConfigurationException.class);
        assertThat(thrown.getMessage())
                .as("the message of %s", thrown)
                .contains(
                        "wrapped-missing-class", "io.netty.channel.epoll.EpollIoHandler", "io.locksmith:locksmith-bom");
    }

    @Test
    void aStaticInitializerThatFailsWhenABackendOpensIsAConfigurationError() {
        Throwable thrown = catchThrowable(() -> LockClient.open("failing-initializer:"));

        assertThat(thrown)
                .as("opening a backend whose client library's static initializer fails")
                .isInstanceOf(LockConfigurationException.class);
        assertThat(thrown.getMessage())
                .as("the message of %s", thrown)
                .contains(
                        "failing-initializer",
                        "ExceptionInInitializerError",
                        "the client library's static initializer failed",
                        "io.locksmith:locksmith-bom");
        assertThat(thrown.getCause()).as("the cause of %s", thrown).isInstanceOf(ExceptionInInitializerError.class);
    }

    @Test
    void aProviderThatDoesNotLinkIsNamedWithItsJarAndTheFixWhenItsSchemeIsOpened() {
        Throwable thrown = catchThrowable(() -> LockClient.open("unlinkable:"));

        assertThat(thrown)
                .as("opening the scheme of a provider that failed to load")
                .isInstanceOf(LockConfigurationException.class);
        assertThat(thrown.getMessage())
                .as("the message of %s", thrown)
                .contains(
                        "'unlinkable'",
                        TestProviders.Unlinkable.class.getName(),
                        "the unlinkable provider's client library does not link",
                        "io.locksmith:locksmith-bom");
    }

    @Test
    void aProviderThatDoesNotLinkDoesNotStopTheOthersAndIsNamedEveryTime() {
        try (LockClient c = LockClient.open("test:")) {
            assertThat(c.backend())
                    .as("the scripted provider beside one that does not link")
                    .isEqualTo("test://backend");
        }
        // the second load meets the provider class in its failed state: NoClassDefFoundError, not the first error
        Throwable again = catchThrowable(() -> LockClient.open("unlinkable:"));
        assertThat(again)
                .as("the second attempt at a provider that failed to load")
                .isInstanceOf(LockConfigurationException.class);
        assertThat(again.getMessage())
                .as("the message of %s", again)
                .contains(TestProviders.Unlinkable.class.getName(), "io.locksmith:locksmith-bom");
    }

    @Test
    void theAdviceForALinkageErrorNamesTheMissingClassAndTheBom() {
        String advice = LinkageAdvice.describe(new NoClassDefFoundError("io/netty/channel/epoll/EpollIoHandler"));

        assertThat(advice)
                .as("the advice for a missing Netty class")
                .contains(
                        "NoClassDefFoundError",
                        "io.netty.channel.epoll.EpollIoHandler",
                        "io.locksmith:locksmith-bom",
                        "docs/install.md");
        assertThat(LinkageAdvice.find(new IllegalStateException("plain failure")))
                .as("a failure without a linkage error")
                .isEmpty();
    }

    @Test
    void aLinkageErrorThatNamesNoProviderIsPinnedOnTheDeclaredProviderThatDidNotLoad() {
        // ServiceLoader throws a class's NoClassDefFoundError as it is, without the provider's name
        List<LockProvider> loaded = List.of(
                new TestProviders.Scripted(),
                new TestProviders.DuplicateOne(),
                new TestProviders.DuplicateTwo(),
                new TestProviders.MissingClass(),
                new TestProviders.WrappedMissingClass(),
                new TestProviders.FailingInitializer());
        List<Throwable> errors = List.of(
                new ServiceConfigurationError(
                        "io.locksmith.spi.LockProvider: Provider " + TestProviders.Broken.class.getName()
                                + " could not be instantiated",
                        new IllegalStateException("the broken provider's client library is missing")),
                new NoClassDefFoundError("io/netty/channel/epoll/EpollIoHandler"));

        List<String> described =
                LoadFailures.describe(errors, loaded, getClass().getClassLoader());

        assertThat(described).as("one description per load failure").hasSize(2);
        assertThat(described.get(0))
                .as("the failure that names its provider")
                .startsWith(TestProviders.Broken.class.getName() + " (declared in test-classes)")
                .contains("IllegalStateException: the broken provider's client library is missing")
                .doesNotContain("locksmith-bom");
        assertThat(described.get(1))
                .as("the failure that names no provider")
                .startsWith(TestProviders.Unlinkable.class.getName() + " (declared in test-classes)")
                .contains("NoClassDefFoundError: io.netty.channel.epoll.EpollIoHandler", "io.locksmith:locksmith-bom");
    }
}
