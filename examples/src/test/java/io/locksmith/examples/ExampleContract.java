package io.locksmith.examples;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.tck.Capabilities;
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
                        .testLease(Duration.ofSeconds(1))   // rules about time scale from this
                        .nativeWakeUp(true)                 // a release wakes waiters
                        .fifo(false)                        // waiters are not queued in order
                        .build();
            }

            @Override
            public Faults faults() {
                return new Faults() {
                    // Implement removeLockState, cutConnection and restoreConnection (and crash, if
                    // cutting and closing is not how a crash looks for your backend) to run the loss
                    // and crash rules; without them those rules are reported as skipped.
                };
            }
        };
    }
}
// tck-example:end
