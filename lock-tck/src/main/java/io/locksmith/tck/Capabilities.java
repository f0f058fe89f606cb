package io.locksmith.tck;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What a provider can promise, so the kit knows what to expect and how long to wait. Every lease
 * the kit uses scales from {@link #testLease()}, so a backend with a long minimum lease (Azure:
 * 15 s) still runs the kit, only more slowly. It also names the fault hooks the provider cannot
 * supply ({@link Builder#lacks(Fault...)}): their rules are skipped, saying so, where a hook that is
 * merely missing fails them.
 *
 * <p>Every capability, with its default: {@link Builder#minimumLease minimumLease} (1 ms),
 * {@link Builder#maximumLease maximumLease} (365 days), {@link Builder#testLease testLease} (the
 * larger of 1 s and the minimum), {@link Builder#nativeWakeUp nativeWakeUp} and
 * {@link Builder#fifo fifo} (false: the optional rules do not run),
 * {@link Builder#fencingSurvivesStateRemoval fencingSurvivesStateRemoval} and
 * {@link Builder#fencingSurvivesRestart fencingSurvivesRestart} (true),
 * {@link Builder#contentionGrants contentionGrants} (5,000) and {@link Builder#lacks lacks} (none).
 *
 * <pre>{@code
 * Capabilities.builder()
 *         .minimumLease(Duration.ofSeconds(2))   // etcd's shortest lease TTL
 *         .nativeWakeUp(true)                    // a watch wakes waiters
 *         .fifo(true)                            // waiters queue by revision
 *         .lacks(Fault.SKEW_WALL_CLOCK)          // leases by the server's clock: nothing to skew
 *         .build();
 * }</pre>
 */
public final class Capabilities {

    private final Duration minimumLease;
    private final Duration testLease;
    private final boolean nativeWakeUp;
    private final boolean fifo;
    private final boolean fencingSurvivesStateRemoval;
    private final boolean fencingSurvivesRestart;
    private final Duration maximumLease;
    private final int contentionGrants;
    private final Set<Fault> lacking;

    private Capabilities(Builder b) {
        this.minimumLease = b.minimumLease;
        this.testLease = b.testLease != null
                ? b.testLease
                : (b.minimumLease.compareTo(Duration.ofSeconds(1)) > 0 ? b.minimumLease : Duration.ofSeconds(1));
        this.nativeWakeUp = b.nativeWakeUp;
        this.fifo = b.fifo;
        this.fencingSurvivesStateRemoval = b.fencingSurvivesStateRemoval;
        this.fencingSurvivesRestart = b.fencingSurvivesRestart;
        this.maximumLease = b.maximumLease;
        this.contentionGrants = b.contentionGrants;
        this.lacking = Set.copyOf(b.lacking);
    }

    /** @return a builder with conservative defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the shortest lease the provider accepts; shorter ones must be rejected */
    public Duration minimumLease() {
        return minimumLease;
    }

    /**
     * @return the longest lease the provider keeps (ZooKeeper: its session); rules that want a
     *     lease longer than the test lease take at most this
     */
    public Duration maximumLease() {
        return maximumLease;
    }

    /** @return the lease the kit uses in rules about time; by default the larger of 1 s and the minimum */
    public Duration testLease() {
        return testLease;
    }

    /** @return whether a release wakes waiters by a backend signal, not only by their next poll */
    public boolean nativeWakeUp() {
        return nativeWakeUp;
    }

    /** @return whether waiters are granted in the order they started waiting */
    public boolean fifo() {
        return fifo;
    }

    /** @return whether fencing tokens keep increasing after a lock's state was removed on the server */
    public boolean fencingSurvivesStateRemoval() {
        return fencingSurvivesStateRemoval;
    }

    /**
     * @return whether fencing tokens keep increasing across a server restart ({@link Faults#restartServer()});
     *     a server that keeps no data on disk (Redis without persistence) starts its counters again
     */
    public boolean fencingSurvivesRestart() {
        return fencingSurvivesRestart;
    }

    /** @return how many grants the mutual-exclusion rule makes; at least 5,000 */
    public int contentionGrants() {
        return contentionGrants;
    }

    /**
     * @param fault a fault hook
     * @return whether the provider declared that it cannot supply the hook; the rules that need it
     *     are then skipped, saying so, instead of failing
     */
    public boolean lacks(Fault fault) {
        return lacking.contains(fault);
    }

    /** @return the fault hooks the provider declared it cannot supply */
    public Set<Fault> lacking() {
        return lacking;
    }

    @Override
    public String toString() {
        return "Capabilities[minimumLease=" + minimumLease + ", testLease=" + testLease + ", nativeWakeUp="
                + nativeWakeUp + ", fifo=" + fifo + ", fencingSurvivesStateRemoval=" + fencingSurvivesStateRemoval
                + ", fencingSurvivesRestart=" + fencingSurvivesRestart + ", lacks=" + lacking + "]";
    }

    /** Builds {@link Capabilities}. */
    public static final class Builder {
        private Duration minimumLease = Duration.ofMillis(1);
        private Duration testLease;
        private boolean nativeWakeUp;
        private boolean fifo;
        private boolean fencingSurvivesStateRemoval = true;
        private boolean fencingSurvivesRestart = true;
        private Duration maximumLease = Duration.ofDays(365);
        private int contentionGrants = 5_000;
        private final Set<Fault> lacking = EnumSet.noneOf(Fault.class);

        private Builder() {}

        /**
         * Declares fault hooks the provider cannot supply. The rules that need one are reported as
         * skipped with the reason; without this declaration a missing hook fails its rules.
         *
         * <pre>{@code
         * Capabilities.builder().lacks(Fault.RESTART_SERVER, Fault.SKEW_WALL_CLOCK).build();
         * }</pre>
         *
         * @param faults the hooks the provider lacks
         * @return this builder
         */
        public Builder lacks(Fault... faults) {
            for (Fault f : faults) {
                lacking.add(Objects.requireNonNull(f, "fault"));
            }
            return this;
        }

        /**
         * @param lease the shortest lease the provider accepts
         * @return this builder
         */
        public Builder minimumLease(Duration lease) {
            this.minimumLease = Objects.requireNonNull(lease, "lease");
            return this;
        }

        /**
         * @param lease the lease to use in rules about time; at least the minimum lease
         * @return this builder
         */
        public Builder testLease(Duration lease) {
            this.testLease = Objects.requireNonNull(lease, "lease");
            return this;
        }

        /**
         * @param wakes whether a release wakes waiters by a backend signal
         * @return this builder
         */
        public Builder nativeWakeUp(boolean wakes) {
            this.nativeWakeUp = wakes;
            return this;
        }

        /**
         * @param fifo whether waiters are granted in arrival order
         * @return this builder
         */
        public Builder fifo(boolean fifo) {
            this.fifo = fifo;
            return this;
        }

        /**
         * @param survives whether tokens keep increasing after a lock's state was removed
         * @return this builder
         */
        public Builder fencingSurvivesStateRemoval(boolean survives) {
            this.fencingSurvivesStateRemoval = survives;
            return this;
        }

        /**
         * @param lease the longest lease the provider keeps; at least the test lease
         * @return this builder
         */
        public Builder maximumLease(Duration lease) {
            this.maximumLease = Objects.requireNonNull(lease, "lease");
            return this;
        }

        /**
         * @param survives whether tokens keep increasing across a server restart; say {@code false}
         *     only where the provider's docs say when tokens restart
         * @return this builder
         */
        public Builder fencingSurvivesRestart(boolean survives) {
            this.fencingSurvivesRestart = survives;
            return this;
        }

        /**
         * @param grants grants in the mutual-exclusion rule; at least 5,000
         * @return this builder
         */
        public Builder contentionGrants(int grants) {
            if (grants < 5_000) {
                throw new IllegalArgumentException("contention grants must be at least 5000, was " + grants);
            }
            this.contentionGrants = grants;
            return this;
        }

        /** @return the capabilities */
        public Capabilities build() {
            if (testLease != null && testLease.compareTo(maximumLease) > 0) {
                throw new IllegalArgumentException(
                        "test lease " + testLease + " is longer than the maximum " + maximumLease);
            }
            if (testLease != null && testLease.compareTo(minimumLease) < 0) {
                throw new IllegalArgumentException(
                        "test lease " + testLease + " is shorter than the minimum " + minimumLease);
            }
            return new Capabilities(this);
        }
    }
}
