package io.locksmith.tck;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.opentest4j.AssertionFailedError;

/**
 * The thread-per-lock flaw runs alone: the rule counts the JVM's threads, and the thousand this
 * flaw starts would fail any kit run beside it (the other broken-provider cases run side by side).
 */
@Isolated
class ThreadPerLockTest {

    @Test
    void aProviderWithAThreadPerLockFailsTheManyLocksRule() {
        BrokenProvidersTest.assertFailsFor(
                Flaw.THREAD_PER_LOCK,
                "required_aThousandLocksStayHeldByOneClient",
                AssertionFailedError.class,
                "renewal needs no thread per lock");
    }
}
