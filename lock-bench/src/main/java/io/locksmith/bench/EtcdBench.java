package io.locksmith.bench;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.etcd.EtcdLocks;
import io.locksmith.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * etcd; its floor is what a hand-written lock costs with the same jetcd client: a put-if-absent
 * transaction (compare create revision 0, put on a lease) and a delete, two round trips.
 */
final class EtcdBench implements BackendBench {

    private final TestServer server;
    private final Client client;

    EtcdBench(TestServer server) {
        this.server = server;
        this.client = jetcd();
    }

    private Client jetcd() {
        return Client.builder()
                .endpoints("http://" + server.host() + ":" + server.port())
                .build();
    }

    @Override
    public String name() {
        return "etcd";
    }

    @Override
    public String version() {
        return "etcd " + server.version();
    }

    @Override
    public LockClient client() {
        // the same jetcd client as the floor, as the target asks
        return EtcdLocks.open(client, LockOptions.defaults());
    }

    @Override
    public String uri() {
        return server.uri();
    }

    @Override
    public Floor floor() {
        KV kv = client.getKVClient();
        long lease = join(client.getLeaseClient().grant(30)).getID();
        PutOption onLease = PutOption.builder().withLeaseId(lease).build();
        ByteSequence owner = bytes("owner");
        return new Floor() {
            @Override
            public void pair(String key) {
                ByteSequence k = bytes("floor/" + key);
                join(kv.txn()
                        .If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                        .Then(Op.put(k, owner, onLease))
                        .commit());
                join(kv.delete(k));
            }

            @Override
            public void close() {
                join(client.getLeaseClient().revoke(lease));
            }
        };
    }

    /**
     * The pair floor's transaction and delete on a jetcd client of its own, on a lease that
     * outlasts any run (revoked on close).
     */
    @Override
    public FloorConnection floorConnection() {
        Client own = jetcd();
        KV kv = own.getKVClient();
        long lease = join(own.getLeaseClient().grant(600)).getID();
        PutOption onLease = PutOption.builder().withLeaseId(lease).build();
        ByteSequence owner = bytes(UUID.randomUUID().toString());
        return new FloorConnection() {
            @Override
            public boolean tryAcquire(String key) {
                ByteSequence k = bytes("floor/" + key);
                return join(kv.txn()
                                .If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                                .Then(Op.put(k, owner, onLease))
                                .commit())
                        .isSucceeded();
            }

            @Override
            public void release(String key) {
                join(kv.delete(bytes("floor/" + key)));
            }

            @Override
            public void close() {
                join(own.getLeaseClient().revoke(lease));
                own.close();
            }
        };
    }

    /** Opened from the URI, so that it has a jetcd client of its own, as a process would. */
    @Override
    public LockClient processClient() {
        return LockClient.open(server.uri());
    }

    @Override
    public Runnable roundTrip() {
        KV kv = client.getKVClient();
        ByteSequence key = bytes("ping");
        GetOption countOnly = GetOption.builder().withCountOnly(true).build();
        return () -> join(kv.get(key, countOnly));
    }

    @Override
    public void close() {
        client.close();
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }
}
