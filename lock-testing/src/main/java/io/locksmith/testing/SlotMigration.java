package io.locksmith.testing;

import io.locksmith.testing.RedisClusterGroup.MigrationHook;
import io.locksmith.testing.RedisClusterGroup.MigrationStep;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One slot moved from its master to another, as {@code redis-cli --cluster reshard} does it:
 * {@code SETSLOT IMPORTING} on the target, {@code SETSLOT MIGRATING} on the owner, the keys in
 * batches with {@code MIGRATE … KEYS}, then {@code SETSLOT NODE} on the target, the owner and the
 * other masters, in that order (the target first, so that it never refuses a redirected command
 * for a slot that is already its own elsewhere).
 *
 * <p>If the test's hook throws (or one of its assertions fails), the migration is still finished
 * before the failure is reported:
 * the cluster is shared, and a slot left half-moved would fail later tests for the wrong reason.
 */
final class SlotMigration {

    private static final Logger LOG = LoggerFactory.getLogger(SlotMigration.class);
    private static final String BATCH = "100";
    private static final String MIGRATE_TIMEOUT_MS = "10000";

    private final LocalRedisClusterGroup cluster;
    private final int slot;
    private final LocalServer target;

    SlotMigration(LocalRedisClusterGroup cluster, int slot, LocalServer target) {
        this.cluster = cluster;
        this.slot = slot;
        this.target = target;
    }

    void run(MigrationHook hook) {
        ClusterNodes view = cluster.view();
        ClusterNodes.Node owner = view.masterOf(slot)
                .orElseThrow(() -> new TestServerException("redis cluster: no master serves slot " + slot));
        ClusterNodes.Node to = view.byPort(target.port())
                .filter(ClusterNodes.Node::master)
                .orElseThrow(() -> new IllegalArgumentException(target + " is not a master of the cluster"));
        if (owner.id().equals(to.id())) {
            throw new IllegalArgumentException("slot " + slot + " is already on " + target);
        }
        LocalServer source = cluster.local(owner.port());
        long since = System.nanoTime();
        String id = Integer.toString(slot);
        LocalRedisClusterGroup.command(target, "CLUSTER", "SETSLOT", id, "IMPORTING", owner.id());
        LocalRedisClusterGroup.command(source, "CLUSTER", "SETSLOT", id, "MIGRATING", to.id());
        Throwable failed = call(hook, MigrationStep.MARKED);
        moveKeys(source);
        if (failed == null) {
            failed = call(hook, MigrationStep.KEYS_MOVED);
            moveKeys(source); // none should be left, since new keys of the slot now go to the target; check
        }
        List<LocalServer> order = new ArrayList<>(List.of(target, source));
        for (ClusterNodes.Node master : view.nodes()) {
            LocalServer other = cluster.local(master.port());
            if (master.master() && !order.contains(other) && other.serving()) {
                order.add(other);
            }
        }
        for (LocalServer node : order) {
            LocalRedisClusterGroup.command(node, "CLUSTER", "SETSLOT", id, "NODE", to.id());
        }
        LocalRedisClusterGroup.until(
                "redis cluster: every node sees slot " + slot + " on " + target,
                () -> cluster.everyServingNode(
                        v -> v.masterOf(slot).map(n -> n.id().equals(to.id())).orElse(false)));
        LOG.info(
                "redis cluster: slot {} moved from {} to {} in {} ms",
                slot,
                source,
                target,
                (System.nanoTime() - since) / 1_000_000);
        if (failed instanceof AssertionError assertion) {
            throw assertion; // a test's own check failed in its hook: report it as the test's failure
        }
        if (failed != null) {
            throw new TestServerException(
                    "redis cluster: the hook of the migration of slot " + slot + " failed"
                            + " (the migration was finished): " + failed,
                    failed);
        }
    }

    private static Throwable call(MigrationHook hook, MigrationStep step) {
        try {
            hook.reached(step);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        } catch (Exception | AssertionError e) {
            return e;
        }
    }

    private void moveKeys(LocalServer source) {
        while (true) {
            Object keys =
                    LocalRedisClusterGroup.command(source, "CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), BATCH);
            if (!(keys instanceof List<?> list) || list.isEmpty()) {
                return;
            }
            List<String> migrate = new ArrayList<>(List.of(
                    "MIGRATE", LocalServer.HOST, Integer.toString(target.port()), "", "0", MIGRATE_TIMEOUT_MS, "KEYS"));
            list.forEach(key -> migrate.add(String.valueOf(key)));
            LocalRedisClusterGroup.command(source, migrate.toArray(String[]::new));
        }
    }
}
