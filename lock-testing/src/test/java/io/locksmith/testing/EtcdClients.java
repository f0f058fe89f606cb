package io.locksmith.testing;

import io.etcd.jetcd.Client;
import java.time.Duration;
import java.util.Arrays;

/** jetcd clients for the {@code etcd://h:p,h:p} URIs the fixtures hand out. */
final class EtcdClients {

    private EtcdClients() {}

    static Client connect(String etcdUri) {
        String[] endpoints = Arrays.stream(etcdUri.substring("etcd://".length()).split(","))
                .map(hostPort -> "http://" + hostPort)
                .toArray(String[]::new);
        return Client.builder()
                .endpoints(endpoints)
                .connectTimeout(Duration.ofSeconds(2))
                .retryMaxDuration(Duration.ofSeconds(3))
                .build();
    }
}
