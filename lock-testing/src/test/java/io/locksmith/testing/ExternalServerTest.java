package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ExternalServerTest {

    @Test
    void readsHostAndPortFromEveryKindOfUri() {
        assertHostPort(Backend.REDIS, "redis://user:secret@cache.example:6380/0", "cache.example", 6380);
        assertHostPort(Backend.ETCD, "etcd://e1:2379,e2:2379", "e1", 2379);
        assertHostPort(Backend.ZOOKEEPER, "zookeeper://zk1:2181,zk2:2181/chroot", "zk1", 2181);
        assertHostPort(Backend.POSTGRES, "jdbc:postgresql://db:5433/app?user=u&password=p", "db", 5433);
        assertHostPort(Backend.MARIADB, "jdbc:mariadb://maria/test", "maria", 3306);
        assertHostPort(Backend.AZURITE, AzuriteRecipe.connectionString("blobhost", 10001), "blobhost", 10001);
    }

    private static void assertHostPort(Backend backend, String uri, String host, int port) {
        ExternalServer server = ExternalServer.fromVariable(backend, uri);
        assertThat(server.host()).as(uri).isEqualTo(host);
        assertThat(server.port()).as(uri).isEqualTo(port);
        assertThat(server.uri()).isEqualTo(uri);
        assertThat(server.toString()).doesNotContain("secret", "password");
    }

    @Test
    void refusesFaultControlsAndSaysWhy() {
        ExternalServer redis = ExternalServer.fromVariable(Backend.REDIS, "redis://user:secret@cache:6379");
        assertThat(redis.controllable()).isFalse();
        assertThatThrownBy(redis::kill)
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("LOCKSMITH_TEST_REDIS_URI")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(redis::pause).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(redis::resume).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(redis::restart).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aValueWithoutHostIsRefusedWithoutEchoingIt() {
        assertThatThrownBy(() -> ExternalServer.fromVariable(Backend.POSTGRES, "nonsense-with-secret"))
                .isInstanceOf(TestServerException.class)
                .hasMessageContaining("LOCKSMITH_TEST_POSTGRES_URI")
                .hasMessageNotContaining("secret");
    }

    @Test
    void theMissingServerMessageNamesThePackageAndTheInstallScript() {
        assertThat(Binaries.missingMessage(Backend.MARIADB, "mariadbd is not on the PATH"))
                .contains(
                        "mariadb-server",
                        "scripts/install-test-servers.sh",
                        "scripts/test.sh",
                        "LOCKSMITH_TEST_MARIADB_URI",
                        "Docker");
        assertThat(Binaries.missingMessage(Backend.AZURITE, "azurite-blob is not on the PATH"))
                .contains("npm install -g azurite");
    }
}
