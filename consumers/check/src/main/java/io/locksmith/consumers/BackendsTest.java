package io.locksmith.consumers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.spi.LockProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * What every consumer project checks on its own class path: the providers found are exactly the
 * backends it depends on, each opens against a real server and takes and releases a lock, and the
 * jars Maven resolved hold one Netty version.
 *
 * <p>A project names its backends in the system property {@code consumer.backends} and itself in
 * {@code consumer.project} (consumers/pom.xml passes both to surefire).
 */
class BackendsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final String project = System.getProperty("consumer.project", "consumer");
    private final List<ConsumerBackend> backends = ConsumerBackend.parse(System.getProperty("consumer.backends"));

    @Test
    void theProvidersFoundAreTheProjectsBackends() {
        Set<String> expected = backends.stream().map(ConsumerBackend::providerClass).collect(Collectors.toCollection(TreeSet::new));
        // type() names the class without loading the provider, so a provider that cannot load still counts
        Set<String> found = ServiceLoader.load(LockProvider.class).stream().map(p -> p.type().getName())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, found, "[" + project + "] providers: the class path should offer exactly the backends the"
                + " project depends on");
    }

    @TestFactory
    Stream<DynamicTest> eachBackendTakesAndReleasesALock() {
        return backends.stream().map(b -> DynamicTest.dynamicTest(b.artifactSuffix(), () -> takeAndRelease(b)));
    }

    private void takeAndRelease(ConsumerBackend backend) {
        String rule = "[" + project + "] " + backend.artifactSuffix() + ": ";
        try (LockClient locks = LockClient.open(backend.uri())) {
            DistributedLock lock = locks.lock("consumers/" + project + "/" + backend.artifactSuffix());
            try (LockHandle held = lock.acquire(WAIT)) {
                assertTrue(held.isHeld(), rule + "a lock just acquired should be held");
                Optional<LockHandle> second = lock.tryAcquire();
                second.ifPresent(LockHandle::close);
                assertFalse(second.isPresent(), rule + "a held lock should not be granted a second time");
            }
            Optional<LockHandle> again = lock.tryAcquire();
            again.ifPresent(LockHandle::close);
            assertTrue(again.isPresent(), rule + "a released lock should be free again");
        }
    }

    @Test
    void oneNettyIsOnTheClassPath() {
        // each Netty jar carries META-INF/io.netty.versions.properties naming its artifact and version
        Map<String, Set<String>> artifactsByVersion = new TreeMap<>();
        for (URL resource : nettyVersionFiles()) {
            Properties p = load(resource);
            for (String key : p.stringPropertyNames()) {
                if (key.endsWith(".version")) {
                    artifactsByVersion.computeIfAbsent(p.getProperty(key), v -> new TreeSet<>())
                            .add(key.substring(0, key.length() - ".version".length()));
                }
            }
        }
        assertTrue(artifactsByVersion.size() <= 1, "[" + project + "] one Netty: the class path mixes Netty versions,"
                + " which fails at run time with NoClassDefFoundError or NoSuchMethodError: " + artifactsByVersion);
    }

    private static List<URL> nettyVersionFiles() {
        try {
            return Collections.list(BackendsTest.class.getClassLoader().getResources("META-INF/io.netty.versions.properties"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Properties load(URL resource) {
        Properties p = new Properties();
        try (InputStream in = resource.openStream()) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
        return p;
    }
}
