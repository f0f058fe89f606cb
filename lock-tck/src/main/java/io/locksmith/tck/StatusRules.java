package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockStatus;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A provider whose backend reads a lock's holder ({@code LockBackend.inspector()}, behind
 * {@code DistributedLock.status()} and {@code locksmith status}) reports the holder the server has:
 * its token, from any client, and nobody once it released. Skipped, saying so, where the backend
 * has no inspector and every status is {@code UNKNOWN}.
 */
interface StatusRules extends Rules {

    @Test
    default void optional_statusNamesTheHolderAndItsTokenAndNobodyOnceReleased() {
        LockContract c = contract();
        String name = c.name("status");
        LockClient operator = c.client();
        LockStatus before = operator.lock(name).status();
        Assumptions.assumeTrue(
                before.state() != LockStatus.State.UNKNOWN,
                c.says("skipped: the provider reports no status (its backend has no inspector)"));
        c.check(before.state() == LockStatus.State.FREE, "a name never taken must be free, was " + before);
        LockHandle held = c.client().lock(name).acquire(Duration.ZERO);
        LockStatus during = operator.lock(name).status();
        c.check(
                during.state() == LockStatus.State.HELD,
                "a held lock, seen from another client, must be held, was " + during);
        c.check(
                during.fencingToken().isPresent() && during.fencingToken().getAsLong() == held.fencingToken(),
                "a held lock's status must carry the holder's token " + held.fencingToken() + ", was " + during);
        c.check(during.owner().isPresent(), "a held lock's status must name its owner, was " + during);
        Duration most = c.lease().plus(c.margin());
        during.remainingLease()
                .ifPresent(left -> c.check(
                        !left.isNegative() && left.compareTo(most) <= 0,
                        "a held lock's remaining lease must be between 0 and its "
                                + c.lease().toMillis() + " ms lease, was " + left));
        held.close();
        LockStatus after = operator.lock(name).status();
        c.check(after.state() == LockStatus.State.FREE, "a released lock must be free, was " + after);
    }
}
