package io.locksmith.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One Redis Cluster node's view of the cluster, read from its {@code CLUSTER NODES}: each node's
 * id, port, role, failure flags and slots. Views differ between nodes until gossip settles, so
 * the fixture waits until every serving node's view says the same.
 */
final class ClusterNodes {

    /**
     * One line of the table.
     *
     * @param id the node's id
     * @param port the node's client port
     * @param flags its flags ({@code myself}, {@code master}, {@code slave}, {@code fail?}, {@code fail}, …)
     * @param masterId the id of the master it replicates, or {@code "-"} for a master
     * @param slots the slot ranges it serves, each as {@code {from, to}}
     */
    record Node(String id, int port, Set<String> flags, String masterId, List<int[]> slots) {

        boolean master() {
            return flags.contains("master");
        }

        /** Whether the viewing node thinks this one is failing ({@code fail?}) or failed ({@code fail}). */
        boolean failing() {
            return flags.contains("fail") || flags.contains("fail?");
        }

        boolean serves(int slot) {
            for (int[] range : slots) {
                if (slot >= range[0] && slot <= range[1]) {
                    return true;
                }
            }
            return false;
        }
    }

    private final List<Node> nodes;

    private ClusterNodes(List<Node> nodes) {
        this.nodes = nodes;
    }

    /** Asks the node on {@code port} for its view. */
    static ClusterNodes of(int port) throws IOException {
        Object reply = Probes.redis(LocalServer.HOST, port, "CLUSTER", "NODES");
        if (!(reply instanceof String table) || table.startsWith("-")) {
            throw new IOException("CLUSTER NODES on port " + port + " answered " + reply);
        }
        List<Node> nodes = new ArrayList<>();
        for (String line : table.split("\n")) {
            if (!line.isBlank()) {
                nodes.add(parse(line.trim()));
            }
        }
        return new ClusterNodes(nodes);
    }

    /** The view of the first serving node that answers. */
    static ClusterNodes ofAnswering(List<LocalServer> nodes) {
        IOException last = null;
        for (LocalServer node : nodes) {
            if (node.serving()) {
                try {
                    return of(node.port());
                } catch (IOException e) {
                    last = e;
                }
            }
        }
        throw new TestServerException(
                "redis cluster: no serving node answered CLUSTER NODES"
                        + (last == null ? "" : " (last attempt: " + last + ")"),
                last);
    }

    // <id> <ip:port@cport[,hostname]> <flags> <master> <ping-sent> <pong-recv> <epoch> <link> <slot>...
    private static Node parse(String line) {
        String[] fields = line.split(" ");
        String address = fields[1];
        int colon = address.lastIndexOf(':', address.indexOf('@'));
        int port = Integer.parseInt(address.substring(colon + 1, address.indexOf('@')));
        List<int[]> slots = new ArrayList<>();
        for (int i = 8; i < fields.length; i++) {
            if (fields[i].startsWith("[")) {
                continue; // a slot this node is migrating or importing: still served by its owner
            }
            String[] range = fields[i].split("-");
            int from = Integer.parseInt(range[0]);
            slots.add(new int[] {from, range.length == 2 ? Integer.parseInt(range[1]) : from});
        }
        return new Node(fields[0], port, Set.of(fields[2].split(",")), fields[3], List.copyOf(slots));
    }

    List<Node> nodes() {
        return nodes;
    }

    Optional<Node> byPort(int port) {
        return nodes.stream().filter(n -> n.port() == port).findFirst();
    }

    Optional<Node> byId(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst();
    }

    /** The master this view says serves the slot. */
    Optional<Node> masterOf(int slot) {
        return nodes.stream().filter(n -> n.master() && n.serves(slot)).findFirst();
    }

    /** The replica this view gives the master, if it has one. */
    Optional<Node> replicaOf(Node master) {
        return nodes.stream()
                .filter(n -> n.masterId().equals(master.id()) && !n.master())
                .findFirst();
    }

    Node myself() {
        return nodes.stream()
                .filter(n -> n.flags().contains("myself"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("CLUSTER NODES without a 'myself' line"));
    }
}
