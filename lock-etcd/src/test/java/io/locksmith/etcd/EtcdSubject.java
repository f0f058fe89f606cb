package io.locksmith.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.SecretUri;
import io.locksmith.testing.ProxiedSubject;
import io.locksmith.testing.TestServer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real etcd as the kit sees it: each client talks to it through a proxy of its own, which the
 * connection hooks cut, restore and slow down; lock state and queue entries are removed with an
 * admin jetcd client, and the server restarts on its own port and data directory.
 */
final class EtcdSubject extends ProxiedSubject {

    private static final String SECRET = "kit-etcd-s3cret";

    private final Client admin;

    EtcdSubject(TestServer server) {
        super("etcd", server, address -> "etcd://" + address + "?timeout=2s");
        this.admin = Client.builder()
                .endpoints("http://" + server.host() + ":" + server.port())
                .build();
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder()
                .minimumLease(EtcdBackend.MINIMUM_LEASE)
                .testLease(Duration.ofSeconds(2))
                .nativeWakeUp(true)
                .fifo(true)
                .lacks(Fault.SKEW_WALL_CLOCK) // leases are etcd's: no client wall clock is read
                .build();
    }

    /**
     * The test server runs without authentication (other tests share it), so it has no user to
     * log in as and refuses every login: the kit checks what the refusal shows.
     */
    @Override
    public Optional<SecretUri> secretUri() {
        String auth = "etcd://kit:" + SECRET + "@";
        return Optional.of(new SecretUri(
                auth + server().host() + ":" + server().port() + "?timeout=2s",
                SECRET,
                auth + unreachableAddress() + "?timeout=2s",
                false));
    }

    @Override
    public void removeLockState(String key) {
        try {
            admin.getKVClient()
                    .delete(
                            new EtcdKeys(EtcdKeys.DEFAULT_NAMESPACE).lockPrefix(key),
                            DeleteOption.builder().isPrefix(true).build())
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not delete the lock's keys", e);
        }
    }

    @Override
    public void removeQueueEntries(String key) {
        try {
            List<KeyValue> queue = admin.getKVClient()
                    .get(
                            new EtcdKeys(EtcdKeys.DEFAULT_NAMESPACE).lockPrefix(key),
                            GetOption.builder()
                                    .isPrefix(true)
                                    .withKeysOnly(true)
                                    .withSortField(GetOption.SortTarget.CREATE)
                                    .withSortOrder(GetOption.SortOrder.ASCEND)
                                    .build())
                    .get(10, TimeUnit.SECONDS)
                    .getKvs();
            // the lowest create revision holds; every key above it is a waiter's
            for (KeyValue waiter : queue.subList(Math.min(1, queue.size()), queue.size())) {
                admin.getKVClient().delete(waiter.getKey()).get(10, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not delete the lock's waiting keys", e);
        }
    }

    @Override
    public void close() {
        try {
            super.close();
        } finally {
            admin.close();
        }
    }
}
