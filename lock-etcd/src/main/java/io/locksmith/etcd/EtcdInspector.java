package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.locksmith.spi.LockInspector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The read-only look at a lock for operations tools: the key with the lowest create revision
 * under the lock's prefix holds; its name ends with the owner, its create revision is the token,
 * and the remaining lease is its etcd lease's time to live, in whole seconds as etcd counts it.
 */
final class EtcdInspector implements LockInspector {

    private static final GetOption OLDEST = GetOption.builder()
            .isPrefix(true)
            .withKeysOnly(true)
            .withLimit(1)
            .withSortField(GetOption.SortTarget.CREATE)
            .withSortOrder(GetOption.SortOrder.ASCEND)
            .build();

    private final Client client;
    private final EtcdKeys keys;
    private final EtcdCalls calls;

    EtcdInspector(Client client, EtcdKeys keys, EtcdCalls calls) {
        this.client = client;
        this.keys = keys;
        this.calls = calls;
    }

    @Override
    public Optional<HolderState> inspect(String key) {
        ByteSequence prefix = keys.lockPrefix(key);
        List<KeyValue> oldest = calls.await(client.getKVClient().get(prefix, OLDEST), "inspecting lock '" + key + "'")
                .getKvs();
        if (oldest.isEmpty()) {
            return Optional.empty();
        }
        KeyValue holder = oldest.get(0);
        String owner = holder.getKey().substring(prefix.size()).toString(StandardCharsets.UTF_8);
        Duration remaining = null;
        if (holder.getLease() != 0) {
            long ttl = calls.await(
                            client.getLeaseClient().timeToLive(holder.getLease(), LeaseOption.DEFAULT),
                            "reading the lease of lock '" + key + "'")
                    .getTTL();
            remaining = ttl >= 0 ? Duration.ofSeconds(ttl) : null; // -1: the lease ended after the read
        }
        return Optional.of(new HolderState(owner, holder.getCreateRevision(), remaining));
    }
}
