package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

class EtcdServerTest extends ServerContract {

    @Override
    TestServer server() {
        return TestServers.etcd();
    }

    @Override
    String uriPrefix() {
        return "etcd://127.0.0.1:";
    }

    @Override
    void ping(TestServer server) throws Exception {
        try (Client client = EtcdClients.connect(server.uri())) {
            putAndGet(client, "ping");
        }
    }

    /** A put then a linearizable get of the same key, each bounded to a few seconds. */
    static void putAndGet(Client client, String value) throws Exception {
        ByteSequence key = ByteSequence.from("locksmith-selftest", StandardCharsets.UTF_8);
        ByteSequence bytes = ByteSequence.from(value, StandardCharsets.UTF_8);
        client.getKVClient().put(key, bytes).get(3, TimeUnit.SECONDS);
        assertThat(client.getKVClient().get(key).get(3, TimeUnit.SECONDS).getKvs())
                .singleElement()
                .satisfies(kv -> assertThat(kv.getValue()).isEqualTo(bytes));
    }
}
