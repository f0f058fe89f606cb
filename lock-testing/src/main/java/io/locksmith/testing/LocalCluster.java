package io.locksmith.testing;

import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Members started side by side as child processes; the leader is asked of the members. */
final class LocalCluster implements TestCluster {

    private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);

    private final Backend backend;
    private final List<LocalServer> members;

    LocalCluster(Backend backend, List<LocalServer> members) {
        this.backend = backend;
        this.members = List.copyOf(members);
    }

    /** Starts every member, then waits for all: a member is only ready once a quorum runs. */
    LocalCluster start() {
        long since = System.nanoTime();
        members.forEach(LocalServer::launch);
        members.forEach(member -> member.awaitReady(since));
        LOG.info(
                "{} cluster of {} ready in {} ms",
                backend.displayName(),
                members.size(),
                (System.nanoTime() - since) / 1_000_000);
        return this;
    }

    /** Puts every member a test broke back into service. */
    void heal() {
        members.forEach(LocalServer::heal);
    }

    @Override
    public Backend backend() {
        return backend;
    }

    @Override
    public String uri() {
        String scheme = backend.displayName() + "://";
        return scheme + members.stream().map(m -> m.host() + ":" + m.port()).collect(Collectors.joining(","));
    }

    @Override
    public List<TestServer> members() {
        return List.copyOf(members);
    }

    @Override
    public TestServer leader() {
        return backend == Backend.ETCD ? etcdLeader() : zookeeperLeader();
    }

    private TestServer etcdLeader() {
        long leaderId = 0;
        long[] ids = new long[members.size()];
        for (int i = 0; i < members.size(); i++) {
            if (!members.get(i).serving()) {
                continue;
            }
            try {
                long[] memberAndLeader =
                        EtcdRecipe.memberAndLeader(members.get(i).port());
                ids[i] = memberAndLeader[0];
                leaderId = leaderId != 0 ? leaderId : memberAndLeader[1];
            } catch (IOException e) {
                LOG.debug("{} did not report its status", members.get(i).name(), e);
            }
        }
        for (int i = 0; i < members.size(); i++) {
            if (leaderId != 0 && ids[i] == leaderId) {
                return members.get(i);
            }
        }
        throw new TestServerException("no answering etcd member names a leader that answers");
    }

    private TestServer zookeeperLeader() {
        for (LocalServer member : members) {
            try {
                if (member.serving() && "leader".equals(ZooKeeperRecipe.mode(member.port()))) {
                    return member;
                }
            } catch (IOException e) {
                LOG.debug("{} did not report its mode", member.name(), e);
            }
        }
        throw new TestServerException("no answering zookeeper member is the leader");
    }

    @Override
    public String toString() {
        return backend.displayName() + " cluster " + members;
    }
}
