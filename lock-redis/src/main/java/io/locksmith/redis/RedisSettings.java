package io.locksmith.redis;

import io.locksmith.LockOptions;
import io.locksmith.spi.BackendContext;
import java.time.Duration;

/**
 * The Redis backend's own options.
 *
 * @param timeout the command and connect timeout
 * @param replicas how many replicas must acknowledge an acquisition (Redis WAIT); 0 for none
 * @param replicaTimeout how long to wait for them
 * @param presence how long a waiter keeps its place in a lock's queue after its latest attempt
 */
record RedisSettings(Duration timeout, int replicas, Duration replicaTimeout, Duration presence) {

    /**
     * A waiter asks again at least every second (the core's fallback poll), or every maximum
     * back-off if that is longer; three of those keep its place through a slow attempt or two.
     */
    private static final int PRESENCE_POLLS = 3;

    private static final Duration FALLBACK_POLL = Duration.ofSeconds(1);

    static final RedisSettings DEFAULTS = new RedisSettings(Duration.ofSeconds(5), 0, Duration.ofSeconds(1));

    /** Settings with the presence that the default back-off asks for. */
    RedisSettings(Duration timeout, int replicas, Duration replicaTimeout) {
        this(timeout, replicas, replicaTimeout, presence(LockOptions.defaults()));
    }

    static RedisSettings of(BackendContext context) {
        return new RedisSettings(
                context.durationOption("timeout", DEFAULTS.timeout()),
                context.intOption("replicas", DEFAULTS.replicas(), 0),
                context.durationOption("replica-timeout", DEFAULTS.replicaTimeout()),
                presence(context.lockOptions()));
    }

    /** @return these settings with the presence that {@code options}' back-off asks for */
    RedisSettings with(LockOptions options) {
        return new RedisSettings(timeout, replicas, replicaTimeout, presence(options));
    }

    private static Duration presence(LockOptions options) {
        Duration poll = options.backoffMax().compareTo(FALLBACK_POLL) > 0 ? options.backoffMax() : FALLBACK_POLL;
        return poll.multipliedBy(PRESENCE_POLLS);
    }
}
