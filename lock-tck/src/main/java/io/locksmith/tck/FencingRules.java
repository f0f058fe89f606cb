package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Fencing tokens strictly increase across grants of one name, whatever happened in between. */
interface FencingRules extends Rules {

    @Test
    default void required_tokensIncreaseAcrossGrantsAndClients() {
        LockContract c = contract();
        String name = c.name("tokens");
        List<LockClient> clients = List.of(c.client(), c.client(), c.client());
        long last = Long.MIN_VALUE;
        for (int i = 0; i < 30; i++) {
            try (LockHandle h = clients.get(i % 3).lock(name).acquire(c.margin())) {
                c.check(
                        h.fencingToken() > last,
                        "grant " + i + " carried token " + h.fencingToken() + " after " + last);
                last = h.fencingToken();
            }
        }
    }

    @Test
    default void required_tokensIncreaseAfterExpiry() {
        LockContract c = contract();
        String name = c.name("expired");
        LockHandle first = c.client().lock(name).withAutoRenew(false).acquire(Duration.ZERO);
        LockHandle second =
                c.client().lock(name).acquire(c.lease().plus(c.margin()).multipliedBy(2));
        c.check(
                second.fencingToken() > first.fencingToken(),
                "the grant after an expiry carried token " + second.fencingToken() + ", not greater than "
                        + first.fencingToken());
        second.close();
        first.close();
    }

    @Test
    default void required_tokensIncreaseAfterTheLocksStateWasRemoved() {
        LockContract c = contract();
        Assumptions.assumeTrue(
                c.caps().fencingSurvivesStateRemoval(),
                c.says(Fault.AS_DECLARED + " its tokens restart when the lock's state is removed (documented)"));
        String name = c.name("wiped");
        LockHandle first = c.client().lock(name).acquire(Duration.ZERO);
        c.fault(Fault.REMOVE_LOCK_STATE, () -> c.faults().removeLockState(name));
        LockHandle second = c.client().lock(name).acquire(c.margin());
        c.check(
                second.fencingToken() > first.fencingToken(),
                "the grant after the lock's state was removed carried token " + second.fencingToken()
                        + ", not greater than " + first.fencingToken());
        second.close();
        first.close();
    }
}
