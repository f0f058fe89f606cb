/**
 * The ZooKeeper backend, on Apache Curator: an ephemeral sequential node per waiter under the
 * lock's container node; the lowest holds, each waiter watches only its predecessor (FIFO, no
 * herd), the holder node's czxid is the fencing token and the lease is the ZooKeeper session.
 *
 * <p>Open it with {@code LockClient.open("zookeeper://host:2181")} (or {@code zk://}), or around an
 * existing Curator client with {@link io.locksmith.zookeeper.ZooKeeperLocks}.
 */
package io.locksmith.zookeeper;
