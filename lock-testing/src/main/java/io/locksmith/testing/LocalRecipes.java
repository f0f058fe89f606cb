package io.locksmith.testing;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Which single servers this machine can run itself, and what is missing where it cannot. */
final class LocalRecipes {

    /** Either a recipe, or a description of what is missing for one. */
    record Found(Recipe recipe, String missing) {
        static Found of(Optional<? extends Recipe> recipe, String missing) {
            return recipe.<Found>map(r -> new Found(r, null)).orElseGet(() -> new Found(null, missing));
        }
    }

    private LocalRecipes() {}

    static Found single(Backend backend) {
        return switch (backend) {
            case REDIS ->
                Found.of(Binaries.find("redis-server").map(RedisRecipe::master), "redis-server is not on the PATH");
            case ETCD -> Found.of(Binaries.find("etcd").map(LocalRecipes::singleEtcd), "etcd is not on the PATH");
            case ZOOKEEPER ->
                Found.of(
                        ZooKeeperRecipe.missing().isEmpty()
                                ? Optional.of(new ZooKeeperRecipe(0, List.of()))
                                : Optional.empty(),
                        ZooKeeperRecipe.JAR + " does not exist");
            case POSTGRES ->
                Found.of(
                        PostgresRecipe.find(),
                        "initdb and postgres are neither in /usr/lib/postgresql/*/bin nor on the PATH");
            case MARIADB -> Found.of(MariaDbRecipe.find(), "mariadb-install-db and mariadbd are not on the PATH");
            case AZURITE ->
                Found.of(Binaries.find("azurite-blob").map(AzuriteRecipe::new), "azurite-blob is not on the PATH");
        };
    }

    private static EtcdRecipe singleEtcd(Path binary) {
        int peerPort = FreePorts.next();
        return new EtcdRecipe(
                binary,
                "etcd",
                peerPort,
                "etcd=" + EtcdRecipe.peerUrl(peerPort),
                "locksmith-" + ProcessHandle.current().pid());
    }
}
