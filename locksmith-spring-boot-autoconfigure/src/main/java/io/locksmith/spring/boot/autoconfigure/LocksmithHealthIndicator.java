package io.locksmith.spring.boot.autoconfigure;

import io.locksmith.LockClient;
import io.locksmith.LockListener;
import io.locksmith.LockStatus;
import io.locksmith.spring.LockActivity;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the lock backend, under the name {@code locksmith}: up when the backend answers a
 * status read of a probe lock (nothing is taken) and the last renewal batch renewed every lease it
 * could; down when the backend cannot be reached or renewals are failing, since held locks are then
 * about to be lost. Not in the liveness group: a backend outage is no reason to restart the
 * application (Spring Boot's liveness group holds only the application's own state unless
 * configured otherwise).
 */
public class LocksmithHealthIndicator extends AbstractHealthIndicator {

    private final LockClient client;
    private final LockActivity activity;
    private final String probeName;

    /**
     * @param client the client whose backend is checked
     * @param activity what this instance's locks are doing
     * @param probeName the lock whose status is read
     */
    public LocksmithHealthIndicator(LockClient client, LockActivity activity, String probeName) {
        super("the lock backend could not be checked");
        this.client = client;
        this.activity = activity;
        this.probeName = probeName;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("backend", client.backend());
        LockStatus probe = client.lock(probeName).status();
        builder.withDetail("probe", probeName + ": " + probe.state().name().toLowerCase(java.util.Locale.ROOT));
        builder.withDetail("held", activity.held().size())
                .withDetail("waiting", activity.waiters().size());
        LockListener.Renewal renewal = activity.lastRenewal();
        if (renewal != null && renewal.failed() > 0) {
            builder.down()
                    .withDetail(
                            "renewal",
                            "failing: the last batch could not renew " + renewal.failed() + " of " + renewal.leases()
                                    + " leases");
            return;
        }
        builder.up().withDetail("renewal", renewal == null ? "none yet" : "keeping up");
    }
}
