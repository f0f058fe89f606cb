package io.locksmith.testing;

import java.util.List;

/**
 * A group of servers that serve together: a 3-member etcd cluster or ZooKeeper ensemble.
 *
 * <p>Each member has the fault controls of {@link TestServer}, so a test can kill, pause or
 * restart one member and check that the others keep serving.
 *
 * <pre>{@code
 * TestCluster etcd = TestServers.etcdCluster();
 * Client client = Client.builder().endpoints(endpointsOf(etcd.uri())).build();
 * etcd.leader().kill();      // the other two elect a new leader and keep serving
 * }</pre>
 */
public interface TestCluster {

    /**
     * The backend the members belong to.
     *
     * @return the backend, never {@code null}
     */
    Backend backend();

    /**
     * A URI naming every member, for example {@code etcd://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3}.
     *
     * @return the combined URI
     */
    String uri();

    /**
     * The members, in a fixed order.
     *
     * @return an unmodifiable list of the members
     */
    List<TestServer> members();

    /**
     * One member.
     *
     * @param index the member's index, from 0
     * @return the member
     * @throws IndexOutOfBoundsException if there is no such member
     */
    default TestServer member(int index) {
        return members().get(index);
    }

    /**
     * The member that currently leads (etcd's Raft leader, ZooKeeper's leader), asked of the
     * members that answer.
     *
     * @return the leader
     * @throws TestServerException if no answering member names a leader
     */
    TestServer leader();
}
