package io.locksmith.spring.boot.autoconfigure;

import io.locksmith.LockClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code locksmith.*} properties: where the backend is, and the options every lock of the
 * application's {@link LockClient} gets. An option left unset keeps the client's default, or what
 * the URI's query says; setting an option both here and in the URI's query is an error.
 *
 * <pre>
 * locksmith.uri=jdbc:postgresql://db/app?user=app
 * locksmith.lease=20s
 * locksmith.prefix=billing
 * locksmith.backend.table=app_locks
 * </pre>
 */
@ConfigurationProperties("locksmith")
public class LocksmithProperties {

    /**
     * The backend's URI; its scheme picks the backend module on the class path: memory:, redis://,
     * etcd://, zookeeper://, azblob:, jdbc:. Required unless the application defines its own
     * LockClient bean.
     */
    private String uri;

    /** How long a lock is held without renewal; the client's default is 30 s. */
    private Duration lease;

    /** Whether held locks are renewed in the background; on by default. */
    private Boolean renew;

    /** How often held locks are renewed; a third of the lease by default. */
    private Duration renewInterval;

    /** A prefix put before every lock name, to keep applications sharing a backend apart. */
    private String prefix;

    /** The shortest pause between attempts while waiting for a lock; 10 ms by default. */
    private Duration backoffMin;

    /** The longest pause between attempts while waiting for a lock; 1 s by default. */
    private Duration backoffMax;

    /**
     * The backend's own options, as they would appear in the URI's query (a user, a password, a
     * table name). Kept out of logs and of the locks endpoint.
     */
    private Map<String, String> backend = new LinkedHashMap<>();

    /** The name of the lock whose status the health indicator reads to check the backend. */
    private String healthProbeName = "locksmith-health";

    /** Metrics, where lock-micrometer and a MeterRegistry are present. */
    private final Metrics metrics = new Metrics();

    /** @return the {@code locksmith.metrics.*} properties */
    public Metrics getMetrics() {
        return metrics;
    }

    /** The {@code locksmith.metrics.*} properties. */
    public static class Metrics {

        /** Whether the client's locks are metered; on by default where a MeterRegistry bean exists. */
        private boolean enabled = true;

        /**
         * Whether meters carry the lock's name as a {@code lock} tag: none (the default; names are
         * often per-entity ids), prefix (the name up to its first ':', such as "order:"), or whole
         * (only for a small, fixed set of names).
         */
        private LockNameTag lockNameTag = LockNameTag.NONE;

        /** @return whether metering is on */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether metering is on */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the lock-name tag policy */
        public LockNameTag getLockNameTag() {
            return lockNameTag;
        }

        /** @param lockNameTag the lock-name tag policy */
        public void setLockNameTag(LockNameTag lockNameTag) {
            this.lockNameTag = lockNameTag;
        }
    }

    /** How a lock's name becomes a meter tag. */
    public enum LockNameTag {
        /** No lock tag. */
        NONE,
        /** The name up to and including its first ':'. */
        PREFIX,
        /** The whole name. */
        WHOLE
    }

    /** @return {@code locksmith.uri}, or null if unset */
    public String getUri() {
        return uri;
    }

    /** @param uri {@code locksmith.uri} */
    public void setUri(String uri) {
        this.uri = uri;
    }

    /** @return {@code locksmith.lease}, or null if unset */
    public Duration getLease() {
        return lease;
    }

    /** @param lease {@code locksmith.lease} */
    public void setLease(Duration lease) {
        this.lease = lease;
    }

    /** @return {@code locksmith.renew}, or null if unset */
    public Boolean getRenew() {
        return renew;
    }

    /** @param renew {@code locksmith.renew} */
    public void setRenew(Boolean renew) {
        this.renew = renew;
    }

    /** @return {@code locksmith.renew-interval}, or null if unset */
    public Duration getRenewInterval() {
        return renewInterval;
    }

    /** @param renewInterval {@code locksmith.renew-interval} */
    public void setRenewInterval(Duration renewInterval) {
        this.renewInterval = renewInterval;
    }

    /** @return {@code locksmith.prefix}, or null if unset */
    public String getPrefix() {
        return prefix;
    }

    /** @param prefix {@code locksmith.prefix} */
    public void setPrefix(String prefix) {
        this.prefix = prefix;
    }

    /** @return {@code locksmith.backoff-min}, or null if unset */
    public Duration getBackoffMin() {
        return backoffMin;
    }

    /** @param backoffMin {@code locksmith.backoff-min} */
    public void setBackoffMin(Duration backoffMin) {
        this.backoffMin = backoffMin;
    }

    /** @return {@code locksmith.backoff-max}, or null if unset */
    public Duration getBackoffMax() {
        return backoffMax;
    }

    /** @param backoffMax {@code locksmith.backoff-max} */
    public void setBackoffMax(Duration backoffMax) {
        this.backoffMax = backoffMax;
    }

    /** @return {@code locksmith.backend} */
    public Map<String, String> getBackend() {
        return backend;
    }

    /** @param backend {@code locksmith.backend} */
    public void setBackend(Map<String, String> backend) {
        this.backend = backend;
    }

    /** @return {@code locksmith.health-probe-name} */
    public String getHealthProbeName() {
        return healthProbeName;
    }

    /** @param healthProbeName {@code locksmith.health-probe-name} */
    public void setHealthProbeName(String healthProbeName) {
        this.healthProbeName = healthProbeName;
    }

    /**
     * The options that were set, with the backend's, as text under the names
     * {@link LockClient#open(String, Map)} reads.
     */
    Map<String, String> clientOptions() {
        Map<String, String> options = new LinkedHashMap<>(backend);
        putDuration(options, "lease", lease);
        if (renew != null) {
            options.put("renew", renew.toString());
        }
        putDuration(options, "renew-interval", renewInterval);
        if (prefix != null) {
            options.put("prefix", prefix);
        }
        putDuration(options, "backoff-min", backoffMin);
        putDuration(options, "backoff-max", backoffMax);
        return options;
    }

    private static void putDuration(Map<String, String> options, String name, Duration value) {
        if (value != null) {
            // the client's duration format: whole units with a suffix; milliseconds are exact enough
            options.put(name, value.toMillis() + "ms");
        }
    }
}
