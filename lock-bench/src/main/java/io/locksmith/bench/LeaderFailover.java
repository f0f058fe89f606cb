package io.locksmith.bench;

import io.locksmith.LeaderElection;
import io.locksmith.LockBackendException;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.RenewOutcome;
import io.locksmith.testing.TcpProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Leader failover: two participants of one election on two clients; the leader's client crashes
 * (no call of its reaches the server again, so nothing is released), and the scenario times how
 * long the other takes to be elected. The leader's client talks to the server through a
 * {@link TcpProxy}, which the crash cuts: its connections drop as a dead machine's would, without
 * the goodbye a close sends (a closed ZooKeeper session deletes its nodes at once, where a crashed
 * one is expired by the server a session timeout later). The in-process memory backend has no
 * connection; there the crash closes the backend, which releases nothing. That is the leader's
 * remaining lease, kept by the server, plus how soon the follower tries again after it ran out.
 * The crash comes at a random point of the leader's renewal cycle (up to a third of the lease
 * after its election), so that the remaining lease it leaves is anywhere from two thirds of a
 * lease to a whole one, as for a process that dies at any moment.
 */
final class LeaderFailover {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The server's address in a backend's URI, where the leader's client gets its proxy instead. */
    private static final Pattern SERVER = Pattern.compile("127\\.0\\.0\\.1:(\\d+)");

    /**
     * What the scenario measured.
     *
     * @param lease the leadership's lease
     * @param failoverMillis per round, from the crash to the follower's election, in milliseconds
     */
    record Outcome(Duration lease, List<Double> failoverMillis) {

        double medianMillis() {
            List<Double> sorted = failoverMillis.stream().sorted().toList();
            return sorted.get(sorted.size() / 2);
        }

        double maxMillis() {
            return failoverMillis.stream()
                    .mapToDouble(Double::doubleValue)
                    .max()
                    .orElseThrow();
        }
    }

    private LeaderFailover() {}

    /**
     * @param uri the backend's URI; each participant opens its own client of it
     * @param lease the leadership's lease
     * @param rounds how many failovers to time
     */
    static Outcome run(String uri, Duration lease, int rounds) throws InterruptedException {
        LockOptions options = LockOptions.builder().lease(lease).build();
        List<Double> millis = new ArrayList<>(rounds);
        Matcher server = SERVER.matcher(uri);
        boolean inProcess = uri.startsWith("memory:");
        if (!inProcess && !server.find()) {
            throw new IllegalArgumentException(
                    "leader failover needs the server's address as 127.0.0.1:PORT in the URI, to put a proxy there");
        }
        for (int round = 0; round < rounds; round++) {
            String name = "bench-failover-" + round + "-" + System.nanoTime();
            TcpProxy proxy = inProcess ? null : proxyTo(Integer.parseInt(server.group(1)));
            String doomedUri = proxy == null
                    ? uri
                    : uri.substring(0, server.start()) + proxy.address() + uri.substring(server.end());
            Crashable[] crashable = new Crashable[1];
            LockClient doomed =
                    LockClient.open(doomedUri, options, backend -> crashable[0] = new Crashable(backend, proxy));
            LockClient survivor = LockClient.open(uri, options);
            try (LeaderElection first = doomed.leaderElection(name, "first");
                    LeaderElection second = survivor.leaderElection(name, "second")) {
                if (!first.start().awaitLeadership(WAIT)) {
                    throw new IllegalStateException("leader failover on " + uri + ": the first participant was not"
                            + " elected within " + WAIT);
                }
                CountDownLatch elected = new CountDownLatch(1);
                AtomicLong electedAt = new AtomicLong();
                second.addListener(new LeaderElection.Listener() {
                    @Override
                    public void elected(long term) {
                        electedAt.set(System.nanoTime());
                        elected.countDown();
                    }
                });
                second.start();
                long untilCrash = ThreadLocalRandom.current().nextLong(lease.toNanos() / 3);
                LockSupport.parkNanos(untilCrash); // where in the renewal cycle it dies is the point
                long crashedAt = System.nanoTime();
                crashable[0].crash();
                if (!elected.await(WAIT.toMillis() + lease.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("leader failover on " + uri + ": no successor within the lease ("
                            + lease + ") plus " + WAIT);
                }
                millis.add((electedAt.get() - crashedAt) / 1e6);
            } finally {
                survivor.close();
                doomed.close(); // its releases fail, as a dead process's would never be sent
                if (proxy != null) {
                    proxy.close();
                }
            }
        }
        return new Outcome(lease, millis);
    }

    private static TcpProxy proxyTo(int port) {
        try {
            return new TcpProxy("127.0.0.1", port);
        } catch (IOException e) {
            throw new UncheckedIOException("leader failover: could not open a proxy to port " + port, e);
        }
    }

    /**
     * A backend whose process died: once crashed, every call fails without reaching the server and
     * its connections are cut (or, in process, it is closed), so the server keeps the leader's key
     * until its lease runs out.
     */
    private static final class Crashable extends ForwardingLockBackend {

        private final TcpProxy proxy;
        private volatile boolean crashed;

        Crashable(LockBackend backend, TcpProxy proxy) {
            super(backend);
            this.proxy = proxy;
        }

        void crash() {
            crashed = true;
            if (proxy != null) {
                proxy.cut();
            } else {
                delegate().close();
            }
        }

        @Override
        public AcquireResult tryAcquire(AcquireRequest request) {
            alive(request.name());
            return super.tryAcquire(request);
        }

        @Override
        public List<RenewOutcome> renew(List<HeldLease> leases) {
            alive(leases.get(0).name());
            return super.renew(leases);
        }

        @Override
        public boolean release(HeldLease lease) {
            alive(lease.name());
            return super.release(lease);
        }

        @Override
        public void abandon(AcquireRequest request) {
            alive(request.name());
            super.abandon(request);
        }

        @Override
        public void lost(HeldLease lease, io.locksmith.LossReason reason) {
            alive(lease.name());
            super.lost(lease, reason);
        }

        @Override
        public void close() {
            if (!crashed) {
                super.close();
            }
        }

        private void alive(String lockName) {
            if (crashed) {
                throw new LockBackendException(description() + ": the client crashed (lock '" + lockName + "')");
            }
        }
    }
}
