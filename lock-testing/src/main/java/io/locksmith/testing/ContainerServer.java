package io.locksmith.testing;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The fallback where a server's binary is missing but a Docker engine answers: the same server in
 * a container, through Testcontainers. Its port is mapped by Docker, so restart on the same
 * port cannot be promised and the fault controls are not offered.
 */
final class ContainerServer extends UncontrolledServer {

    private static final Logger LOG = LoggerFactory.getLogger(ContainerServer.class);

    private final Backend backend;
    private final GenericContainer<?> container;
    private final String version;

    private ContainerServer(Backend backend, GenericContainer<?> container, String version) {
        this.backend = backend;
        this.container = container;
        this.version = version;
    }

    /** Whether a Docker engine answers; false also when Testcontainers cannot load at all. */
    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("no Docker engine for Testcontainers", e);
            return false;
        }
    }

    /** Starts the backend's server in a container and waits until it listens. */
    @SuppressWarnings("resource") // closed at exit by the Reaper
    static ContainerServer start(Backend backend) {
        long since = System.nanoTime();
        GenericContainer<?> container = switch (backend) {
            case REDIS -> new GenericContainer<>(DockerImageName.parse("redis:7.0")).withExposedPorts(6379);
            case ETCD ->
                new GenericContainer<>(DockerImageName.parse("quay.io/coreos/etcd:v3.4.23"))
                        .withExposedPorts(2379)
                        .withCommand(
                                "etcd",
                                "--listen-client-urls",
                                "http://0.0.0.0:2379",
                                "--advertise-client-urls",
                                "http://0.0.0.0:2379");
            case ZOOKEEPER -> new GenericContainer<>(DockerImageName.parse("zookeeper:3.8")).withExposedPorts(2181);
            case POSTGRES ->
                new GenericContainer<>(DockerImageName.parse("postgres:15"))
                        .withExposedPorts(5432)
                        .withEnv("POSTGRES_HOST_AUTH_METHOD", "trust")
                        .waitingFor(Wait.forLogMessage(".*ready to accept connections.*", 2));
            case MARIADB ->
                new GenericContainer<>(DockerImageName.parse("mariadb:10.11"))
                        .withExposedPorts(3306)
                        .withEnv("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "1")
                        .withEnv("MARIADB_DATABASE", "test")
                        .waitingFor(Wait.forLogMessage(".*ready for connections.*", 2));
            case AZURITE ->
                new GenericContainer<>(DockerImageName.parse("mcr.microsoft.com/azure-storage/azurite:3.34.0"))
                        .withExposedPorts(10000)
                        .withCommand(
                                "azurite-blob",
                                "--blobHost",
                                "0.0.0.0",
                                "--blobPort",
                                "10000",
                                "--skipApiVersionCheck",
                                "--loose");
        };
        container.withStartupTimeout(Duration.ofSeconds(180));
        Reaper.closeAtExit(container);
        container.start();
        String image = container.getDockerImageName();
        String version = image.substring(image.lastIndexOf(':') + 1);
        LOG.info(
                "{} {} ready in a container on {}:{} in {} ms",
                backend.displayName(),
                version,
                container.getHost(),
                container.getFirstMappedPort(),
                (System.nanoTime() - since) / 1_000_000);
        return new ContainerServer(backend, container, version);
    }

    @Override
    String whyUncontrolled() {
        return "this " + backend.displayName()
                + " runs in a container because its binary is missing; install " + backend.installHint()
                + " (scripts/install-test-servers.sh) for a server the tests can control";
    }

    @Override
    public Backend backend() {
        return backend;
    }

    @Override
    public String uri() {
        String hostPort = host() + ":" + port();
        return switch (backend) {
            case REDIS -> "redis://" + hostPort;
            case ETCD -> "etcd://" + hostPort;
            case ZOOKEEPER -> "zookeeper://" + hostPort;
            case POSTGRES -> "jdbc:postgresql://" + hostPort + "/postgres?user=postgres";
            case MARIADB -> "jdbc:mariadb://" + hostPort + "/test?user=root";
            case AZURITE -> AzuriteRecipe.connectionString(host(), port());
        };
    }

    @Override
    public String host() {
        return container.getHost();
    }

    @Override
    public int port() {
        return container.getFirstMappedPort();
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public String toString() {
        return "container " + backend.displayName() + "@" + host() + ":" + port();
    }
}
