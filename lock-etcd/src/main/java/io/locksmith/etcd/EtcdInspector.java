package io.locksmith.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

    private static final GetOption IN_ORDER = GetOption.builder()
            .isPrefix(true)
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

    /**
     * Lists a semaphore's or a read-write lock's keys marked held, in create order (which is
     * grant order for a lock's writers, and may differ from it for permits and readers let go by
     * one release). Keys that wait are not listed; the token is the revision of the grant's write.
     */
    @Override
    public Optional<List<Holder>> holders(String key, Hold.Kind kind) {
        if (kind == Hold.Kind.EXCLUSIVE) {
            return Optional.empty();
        }
        ByteSequence prefix = keys.prefix(kind, key);
        List<KeyValue> all = calls.await(
                        client.getKVClient().get(prefix, IN_ORDER), "inspecting the holders of '" + key + "'")
                .getKvs();
        Map<Long, Duration> remaining = new HashMap<>();
        List<Holder> holders = new ArrayList<>();
        for (KeyValue kv : all) {
            Optional<EtcdShares.Mark> mark = EtcdShares.mark(kv.getValue()).filter(EtcdShares.Mark::held);
            if (mark.isEmpty()) {
                continue;
            }
            String owner = kv.getKey().substring(prefix.size()).toString(StandardCharsets.UTF_8);
            Duration left = kv.getLease() == 0 ? null : remaining.computeIfAbsent(kv.getLease(), this::timeToLive);
            holders.add(new Holder(mark.get().kind(), new HolderState(owner, EtcdShares.token(kv, mark.get()), left)));
        }
        return Optional.of(holders);
    }

    private Duration timeToLive(long lease) {
        long ttl = calls.await(client.getLeaseClient().timeToLive(lease, LeaseOption.DEFAULT), "reading an etcd lease")
                .getTTL();
        return ttl >= 0 ? Duration.ofSeconds(ttl) : null;
    }
}
