package io.locksmith.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.Faults;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.TcpProxy;
import io.locksmith.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A real etcd as the kit sees it: each client talks to it through a proxy of its own, which the
 * connection hooks cut, restore and slow down; lock state and queue entries are removed with an
 * admin jetcd client, and the server restarts on its own port and data directory.
 */
final class EtcdSubject implements TckSubject {

    private final TestServer server;
    private final Client admin;
    private final Map<LockClient, TcpProxy> proxies = new ConcurrentHashMap<>();

    EtcdSubject(TestServer server) {
        this.server = server;
        this.admin = Client.builder().endpoints("http://" + server.host() + ":" + server.port()).build();
    }

    @Override
    public String name() {
        return "etcd";
    }

    @Override
    public LockClient newClient(LockOptions options) {
        TcpProxy proxy;
        try {
            proxy = new TcpProxy(server.host(), server.port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LockClient client = LockClient.open("etcd://127.0.0.1:" + proxy.port() + "?timeout=2s", options);
        proxies.put(client, proxy);
        return client;
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder().minimumLease(EtcdBackend.MINIMUM_LEASE).testLease(Duration.ofSeconds(2))
                .nativeWakeUp(true).fifo(true)
                .lacks(Fault.SKEW_WALL_CLOCK) // leases are etcd's: no client wall clock is read
                .build();
    }

    @Override
    public Faults faults() {
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                try {
                    admin.getKVClient().delete(new EtcdKeys(EtcdKeys.DEFAULT_NAMESPACE).lockPrefix(key),
                            DeleteOption.builder().isPrefix(true).build()).get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException("could not delete the lock's keys", e);
                }
            }

            @Override
            public void removeQueueEntries(String key) {
                try {
                    List<KeyValue> queue = admin.getKVClient().get(new EtcdKeys(EtcdKeys.DEFAULT_NAMESPACE).lockPrefix(key),
                            GetOption.builder().isPrefix(true).withKeysOnly(true)
                                    .withSortField(GetOption.SortTarget.CREATE)
                                    .withSortOrder(GetOption.SortOrder.ASCEND).build()).get(10, TimeUnit.SECONDS).getKvs();
                    // the lowest create revision holds; every key above it is a waiter's
                    for (KeyValue waiter : queue.subList(Math.min(1, queue.size()), queue.size())) {
                        admin.getKVClient().delete(waiter.getKey()).get(10, TimeUnit.SECONDS);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException("could not delete the lock's waiting keys", e);
                }
            }

            @Override
            public void restartServer() {
                server.restart();
            }

            @Override
            public void delayReplies(LockClient client, Duration delay) {
                proxies.get(client).delayReplies(delay);
            }

            @Override
            public void cutConnection(LockClient client) {
                proxies.get(client).cut();
            }

            @Override
            public void restoreConnection(LockClient client) {
                proxies.get(client).restore();
            }
        };
    }

    @Override
    public void close() {
        proxies.values().forEach(TcpProxy::close);
        admin.close();
    }
}
