package io.locksmith.consumers;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A backend a consumer project can depend on: its artifact's provider class and where its server
 * is. Servers are named by the {@code LOCKSMITH_TEST_*_URI} variables, which
 * scripts/consumer-tests.sh sets after starting one server of each kind for every project.
 */
enum ConsumerBackend {

    MEMORY("io.locksmith.memory.MemoryLockProvider", null),
    REDIS("io.locksmith.redis.RedisLockProvider", "LOCKSMITH_TEST_REDIS_URI"),
    ETCD("io.locksmith.etcd.EtcdLockProvider", "LOCKSMITH_TEST_ETCD_URI"),
    ZOOKEEPER("io.locksmith.zookeeper.ZooKeeperLockProvider", "LOCKSMITH_TEST_ZOOKEEPER_URI"),
    AZURE_BLOB("io.locksmith.azure.AzureBlobLockProvider", "LOCKSMITH_TEST_AZURITE_URI"),
    JDBC("io.locksmith.jdbc.JdbcLockProvider", "LOCKSMITH_TEST_POSTGRES_URI");

    private final String providerClass;
    private final String serverVariable;

    ConsumerBackend(String providerClass, String serverVariable) {
        this.providerClass = providerClass;
        this.serverVariable = serverVariable;
    }

    /** The backends named in a comma-separated list such as {@code redis,azure-blob}. */
    static List<ConsumerBackend> parse(String names) {
        if (names == null || names.isBlank()) {
            throw new IllegalStateException("the system property consumer.backends is not set: the consumer project's"
                    + " POM names its backends in the property consumer.backends, for example redis,azure-blob");
        }
        return Arrays.stream(names.split(","))
                .map(String::trim)
                .map(name -> {
                    for (ConsumerBackend b : values()) {
                        if (b.artifactSuffix().equals(name)) {
                            return b;
                        }
                    }
                    throw new IllegalArgumentException("unknown backend '" + name + "' in consumer.backends; known: "
                            + Arrays.stream(values()).map(ConsumerBackend::artifactSuffix).collect(Collectors.joining(", ")));
                })
                .collect(Collectors.toList());
    }

    /** What follows {@code lock-} in the artifact's name: {@code redis}, {@code azure-blob}. */
    String artifactSuffix() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    String providerClass() {
        return providerClass;
    }

    /**
     * The URI the consumer opens. It may carry a development credential (Azurite's well-known
     * key), so it never goes into a message.
     */
    String uri() {
        if (serverVariable == null) {
            return "memory:";
        }
        String server = System.getenv(serverVariable);
        if (server == null || server.isBlank()) {
            throw new IllegalStateException(serverVariable + " is not set, so there is no " + artifactSuffix()
                    + " server to test against: run scripts/consumer-tests.sh, which starts the servers and sets it");
        }
        return switch (this) {
            case AZURE_BLOB -> "azblob:" + server + "?container=consumers";
            default -> server;
        };
    }
}
