package io.locksmith.memory;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.Faults;
import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;
import java.time.Duration;

// tck-example:begin
/** Runs the whole compatibility kit against a provider: here the memory backend, by its URI. */
class ExampleContract extends LockContract {

    private static final String URI = "memory://example"; // your provider's URI, e.g. a test server's

    @Override
    protected TckSubject subject() {
        return new TckSubject() {
            @Override
            public String name() {
                return "example";
            }

            @Override
            public LockClient newClient(LockOptions options) {
                return LockClient.open(URI, options); // each call: a new, independent client
            }

            @Override
            public Capabilities capabilities() {
                return Capabilities.builder()
                        .minimumLease(Duration.ofMillis(1)) // the shortest lease your backend keeps
                        .testLease(Duration.ofSeconds(1)) // rules about time scale from this
                        .nativeWakeUp(true) // a release wakes waiters
                        .fifo(false) // waiters are not queued in order
                        // every hook this example does not supply; a hook neither supplied nor
                        // declared here fails the rules that need it
                        .lacks(Fault.values())
                        .build();
            }

            @Override
            public Faults faults() {
                return new Faults() {
                    // Implement the hooks your backend can supply (removeLockState, cutConnection and
                    // restoreConnection, crash, restartServer, delayReplies, removeQueueEntries) and
                    // take them out of lacks(...): the rules that need them then run. A declared hook
                    // makes its rules report that they did not run; a skip is not a pass.
                };
            }
        };
    }
}
// tck-example:end
