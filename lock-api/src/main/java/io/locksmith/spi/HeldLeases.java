package io.locksmith.spi;

import java.util.List;

/**
 * The core's table of the leases a client holds, as its backend may read it: a backend that
 * watches its keys (an etcd watch, a ZooKeeper node watch) looks up here which grants a change
 * concerns, and keeps no table of its own. A lease is listed from the moment its grant is handed
 * to the core until it is released or lost.
 */
public interface HeldLeases {

    /**
     * @param key a backend key
     * @return the leases held on it by this client, in no particular order; empty if none
     */
    List<HeldLease> on(String key);

    /** @return every lease this client holds */
    List<HeldLease> all();
}
