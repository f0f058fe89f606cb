package io.locksmith.tck.runner;

import io.locksmith.tck.Capabilities;
import io.locksmith.tck.Fault;
import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;
import java.time.Duration;

/**
 * The contract against the URI in the system property {@value #URI_PROPERTY}, as the
 * {@link TckRunner} sets it.
 */
public final class UriContract extends LockContract {

    /** The URI of the provider under test. */
    public static final String URI_PROPERTY = "locksmith.tck.uri";
    /** The lease for rules about time, in milliseconds. */
    public static final String LEASE_PROPERTY = "locksmith.tck.lease-ms";
    /** The provider's shortest lease, in milliseconds. */
    public static final String MIN_LEASE_PROPERTY = "locksmith.tck.min-lease-ms";
    /** Set to {@code true} if the provider wakes waiters natively. */
    public static final String WAKEUP_PROPERTY = "locksmith.tck.wakeup";
    /** Set to {@code true} if the provider grants waiters in arrival order. */
    public static final String FIFO_PROPERTY = "locksmith.tck.fifo";

    /** Creates the contract; JUnit does this. */
    public UriContract() {}

    @Override
    protected TckSubject subject() {
        String uri = System.getProperty(URI_PROPERTY);
        if (uri == null) {
            throw new IllegalStateException("set -D" + URI_PROPERTY + "=URI, or run the kit with TckRunner --uri URI");
        }
        Capabilities.Builder caps = Capabilities.builder()
                .minimumLease(Duration.ofMillis(Long.getLong(MIN_LEASE_PROPERTY, 1)))
                .nativeWakeUp(Boolean.getBoolean(WAKEUP_PROPERTY))
                .fifo(Boolean.getBoolean(FIFO_PROPERTY))
                .lacks(Fault.values()); // a URI brings no fault hooks: their rules say they did not run
        Long lease = Long.getLong(LEASE_PROPERTY);
        if (lease != null) {
            caps.testLease(Duration.ofMillis(lease));
        }
        return new UriSubject(uri, caps.build());
    }
}
