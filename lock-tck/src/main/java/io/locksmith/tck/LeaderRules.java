package io.locksmith.tck;

import io.locksmith.LeaderElection;
import io.locksmith.LockClient;
import io.locksmith.LockStatus;
import io.locksmith.LossReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * At most one leader at a time across clients; a leader that closes resigns and one that dies is
 * succeeded, hearing which; a revoked leader stands again; terms increase; {@code leader()} names
 * the leader. Leader election needs only locks: these rules never skip for want of a kind.
 */
interface LeaderRules extends Rules {

    /** A participant and what it heard. */
    record Participant(LeaderElection election, LockClient client, List<String> heard) {
        static Participant of(LockContract c, String name, String identity) {
            LockClient client = c.client();
            List<String> heard = new CopyOnWriteArrayList<>();
            LeaderElection election = client.leaderElection(name, identity).addListener(new LeaderElection.Listener() {
                @Override
                public void elected(long term) {
                    heard.add("elected " + term);
                }

                @Override
                public void revoked(long term, LossReason reason) {
                    heard.add("revoked " + term + " " + reason);
                }

                @Override
                public void resigned(long term) {
                    heard.add("resigned " + term);
                }
            });
            return new Participant(election, client, heard);
        }

        /** @return the terms this participant was elected for, in the order it heard them */
        List<Long> terms() {
            List<Long> terms = new ArrayList<>();
            for (String h : heard) {
                if (h.startsWith("elected ")) {
                    terms.add(Long.parseLong(h.substring("elected ".length())));
                }
            }
            return terms;
        }

        boolean heard(String prefix) {
            return heard.stream().anyMatch(h -> h.startsWith(prefix));
        }
    }

    private static List<Participant> stand(LockContract c, String name, int count) {
        List<Participant> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(Participant.of(c, name, "node-\u00fc" + i));
        }
        all.forEach(p -> p.election().start());
        return all;
    }

    private static Participant leaderOf(LockContract c, List<Participant> all, Duration within, String what) {
        Participant[] found = new Participant[1];
        c.eventually(
                within,
                () -> {
                    for (Participant p : all) {
                        if (p.election().isLeader()) {
                            found[0] = p;
                            return true;
                        }
                    }
                    return false;
                },
                what);
        return found[0];
    }

    /**
     * Samples every participant's isLeader() for {@code period}: two leaders in one sweep that are
     * both still leaders in the next sweep were leaders at the same instant.
     */
    private static void atMostOneLeader(LockContract c, List<Participant> all, Duration period) {
        long end = System.nanoTime() + period.toNanos();
        List<Participant> before = List.of();
        while (System.nanoTime() - end < 0) {
            List<Participant> now = new ArrayList<>();
            for (Participant p : all) {
                if (p.election().isLeader()) {
                    now.add(p);
                }
            }
            List<Participant> still = new ArrayList<>(now);
            still.retainAll(before);
            c.check(
                    still.size() <= 1,
                    still.size() + " participants were leaders at once: "
                            + still.stream().map(p -> p.election().identity()).toList());
            before = now;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    private static void distinctIncreasingTerms(LockContract c, List<Participant> all) {
        Map<Long, String> byTerm = new ConcurrentHashMap<>();
        for (Participant p : all) {
            long last = Long.MIN_VALUE;
            for (long term : p.terms()) {
                c.check(
                        term > last,
                        p.election().identity() + " was elected for term " + term + " after term " + last
                                + ": terms must strictly increase");
                last = term;
                String other = byTerm.put(term, p.election().identity());
                c.check(
                        other == null,
                        "term " + term + " was given to both " + other + " and "
                                + p.election().identity());
            }
        }
    }

    @Test
    default void required_leaderAtMostOneAcrossClients() {
        LockContract c = contract();
        List<Participant> all = stand(c, c.name("one"), 3);
        Participant first = leaderOf(c, all, c.lease().plus(c.margin()), "one of three participants must be elected");
        atMostOneLeader(c, all, c.lease().multipliedBy(2));
        c.check(first.election().isLeader(), "the first leader must stay leader while its client runs");
        long firstTerm = first.election().term().orElseThrow();
        first.election().close();
        List<Participant> rest = new ArrayList<>(all);
        rest.remove(first);
        Participant second =
                leaderOf(c, rest, c.margin(), "another participant must be elected after the leader closed");
        atMostOneLeader(c, all, c.lease());
        long secondTerm = second.election().term().orElseThrow();
        c.check(
                secondTerm > firstTerm,
                "the second leader's term " + secondTerm + " must be greater than the first's " + firstTerm);
        distinctIncreasingTerms(c, all);
    }

    @Test
    default void required_leaderClosingResignsAndAnotherIsElected() {
        LockContract c = contract();
        List<Participant> all = stand(c, c.name("resign"), 3);
        Participant first = leaderOf(c, all, c.lease().plus(c.margin()), "one of three participants must be elected");
        long term = first.election().term().orElseThrow();
        first.election().close();
        c.check(!first.election().isLeader(), "a closed participant must not be leader");
        c.eventually(c.margin(), () -> first.heard("resigned " + term), "the leader that closed must hear resigned");
        c.check(!first.heard("revoked"), "a leader that closed must hear resigned, not revoked: " + first.heard());
        List<Participant> rest = new ArrayList<>(all);
        rest.remove(first);
        Participant next = leaderOf(c, rest, c.margin(), "another participant must be elected after the leader closed");
        c.check(next.election().term().orElseThrow() > term, "the next leader's term must be greater than " + term);
        distinctIncreasingTerms(c, all);
    }

    @Test
    default void required_aDeadLeaderIsSucceededWithinItsLeaseAndStandsAgain() {
        LockContract c = contract();
        c.requireHook(Fault.CUT_CONNECTION);
        List<Participant> all = stand(c, c.name("dead"), 2);
        Participant first = leaderOf(c, all, c.lease().plus(c.margin()), "one of two participants must be elected");
        Participant second = all.get(all.get(0) == first ? 1 : 0);
        long term = first.election().term().orElseThrow();
        long cut = System.nanoTime();
        // a leader cut off from the backend cannot renew: as a process that died, until restored
        c.fault(Fault.CUT_CONNECTION, () -> c.faults().cutConnection(first.client()));
        try {
            leaderOf(
                    c,
                    List.of(second),
                    c.lease().plus(c.margin()),
                    "a dead leader must be succeeded within its lease plus "
                            + c.margin().toMillis() + " ms");
            c.check(
                    !first.election().isLeader(),
                    "the dead leader must not be leader once another is: its local deadline passed");
            c.eventually(
                    c.margin(),
                    () -> first.heard("revoked " + term + " ") && !first.heard("revoked " + term + " null"),
                    "the dead leader must hear revoked, with a reason");
            c.check(
                    System.nanoTime() - cut
                            <= c.lease().plus(c.margin()).multipliedBy(2).toNanos(),
                    "succession took longer than the rule allows");
        } finally {
            c.faults().restoreConnection(first.client());
        }
        long secondTerm = second.election().term().orElseThrow();
        c.check(secondTerm > term, "the successor's term " + secondTerm + " must be greater than " + term);
        second.election().close();
        leaderOf(
                c,
                List.of(first),
                c.lease().plus(c.margin()).multipliedBy(2),
                "a revoked leader must stand again and be elected once the leader closed");
        c.check(
                first.election().term().orElseThrow() > secondTerm,
                "the revoked leader's new term must be greater than its successor's " + secondTerm);
        distinctIncreasingTerms(c, all);
    }

    @Test
    default void required_leaderNamesTheCurrentLeaderAsGiven() {
        LockContract c = contract();
        String name = c.name("named");
        List<Participant> all = stand(c, name, 2);
        Participant leader = leaderOf(c, all, c.lease().plus(c.margin()), "one of two participants must be elected");
        Participant other = all.get(all.get(0) == leader ? 1 : 0);
        c.check(
                leader.election()
                        .leader()
                        .equals(java.util.Optional.of(leader.election().identity())),
                "the leader's leader() must name itself");
        if (c.client().lock(name).status().state() == LockStatus.State.UNKNOWN) {
            return; // the backend has no inspector: the others cannot tell who leads
        }
        c.check(
                other.election()
                        .leader()
                        .equals(java.util.Optional.of(leader.election().identity())),
                "another participant's leader() must name the leader '"
                        + leader.election().identity() + "' exactly as given, named "
                        + other.election().leader());
    }

    @Test
    default void required_awaitLeadershipAnswersWhetherElected() {
        LockContract c = contract();
        String name = c.name("await");
        LeaderElection first = c.client().leaderElection(name, "first").start();
        c.check(
                first.awaitLeadership(c.lease().plus(c.margin())),
                "awaitLeadership() of the only participant must return true once elected");
        LeaderElection second = c.client().leaderElection(name, "second").start();
        long before = System.nanoTime();
        c.check(!second.awaitLeadership(Duration.ofMillis(300)), "awaitLeadership() must return false on timeout");
        c.check(
                System.nanoTime() - before >= TimeUnit.MILLISECONDS.toNanos(300),
                "awaitLeadership() must wait its whole wait before it answers false");
        c.check(!second.awaitLeadership(Duration.ZERO), "awaitLeadership(0) must answer false at once");
        c.check(first.awaitLeadership(Duration.ZERO), "awaitLeadership(0) of the leader must answer true at once");
        first.close();
        c.check(
                second.awaitLeadership(c.margin()),
                "awaitLeadership() of the other participant must return true once the leader closed");
        second.close();
    }
}
