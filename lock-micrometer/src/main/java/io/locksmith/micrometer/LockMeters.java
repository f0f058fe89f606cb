package io.locksmith.micrometer;

import io.locksmith.LockClient;
import io.locksmith.LockListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Micrometer meters, and optionally observations, for a Locksmith client, built on its
 * {@link LockListener} hook; usable without Spring:
 *
 * <pre>{@code
 * LockClient client = LockClient.open("redis://cache:6379");
 * LockMeters.builder(meterRegistry).build().bindTo(client);
 * }</pre>
 *
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 * <tr><td>{@code locksmith.acquire}</td><td>timer</td><td>backend, kind, outcome</td><td>each acquisition, its wait included</td></tr>
 * <tr><td>{@code locksmith.held}</td><td>long task timer</td><td>backend, kind</td><td>holds in progress and their time</td></tr>
 * <tr><td>{@code locksmith.waiting}</td><td>gauge</td><td>backend, kind</td><td>acquisitions waiting now</td></tr>
 * <tr><td>{@code locksmith.lost}</td><td>counter</td><td>backend, kind, reason</td><td>holds lost</td></tr>
 * <tr><td>{@code locksmith.renew}</td><td>timer</td><td>backend</td><td>renewal batches (one backend call each)</td></tr>
 * <tr><td>{@code locksmith.renew.leases}</td><td>counter</td><td>backend, outcome</td><td>leases renewed, not owned, failed</td></tr>
 * </table>
 *
 * <p>Every tag has few values; the lock's name is left out unless a {@link NameTag} policy adds
 * it as {@code lock}, reduced to a bounded set. With an {@link ObservationRegistry}, each
 * acquisition is also an {@link Observation} named {@code locksmith.acquire} (the lock's full name
 * as the high-cardinality {@code lock.name}, for spans through a tracing bridge); its timer then
 * comes from the registry's meter handler, and this class registers no {@code locksmith.acquire}
 * timer of its own.
 */
public final class LockMeters implements LockListener {

    private final MeterRegistry registry;
    private final ObservationRegistry observations;
    private final NameTag nameTag;
    private final ConcurrentHashMap<Hold, LongTaskTimer.Sample> holds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Observation> acquiring = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Tags, AtomicInteger> waiting = new ConcurrentHashMap<>();

    private LockMeters(Builder b) {
        this.registry = b.registry;
        this.observations = b.observations;
        this.nameTag = b.nameTag;
    }

    /**
     * @param registry where the meters go
     * @return a builder
     */
    public static Builder builder(MeterRegistry registry) {
        return new Builder(registry);
    }

    /**
     * Registers these meters on a client.
     *
     * @param client the client
     * @return the registration; closing it stops the metering (meters already made stay)
     */
    public Registration bindTo(LockClient client) {
        return client.addListener(this);
    }

    @Override
    public void acquisitionStarted(AcquisitionStarted event) {
        if (!event.maxWait().isZero()) {
            waiters(event.backend(), event.kind()).incrementAndGet();
        }
        if (observations != null) {
            Observation o = Observation.createNotStarted("locksmith.acquire", observations)
                    .contextualName("lock " + event.kind() + " acquire")
                    .lowCardinalityKeyValue("backend", event.backend())
                    .lowCardinalityKeyValue("kind", event.kind())
                    .highCardinalityKeyValue("lock.name", event.lockName());
            if (nameTag.tags()) {
                o.lowCardinalityKeyValue("lock", nameTag.value(event.lockName()));
            }
            acquiring.put(event.id(), o.start());
        }
    }

    @Override
    public void acquisitionEnded(AcquisitionEnded event) {
        AcquisitionStarted started = event.started();
        if (!started.maxWait().isZero()) {
            waiters(started.backend(), started.kind()).decrementAndGet();
        }
        String outcome = event.outcome().name().toLowerCase(Locale.ROOT);
        Observation o = acquiring.remove(started.id());
        if (o != null) {
            o.lowCardinalityKeyValue("outcome", outcome);
            if (event.failure() != null && event.outcome() == Outcome.ERROR) {
                o.error(event.failure());
            }
            o.stop();
        } else if (observations == null) {
            Timer.builder("locksmith.acquire")
                    .description("Lock acquisitions, their wait included")
                    .tags(tags(started.backend(), started.kind(), started.lockName()))
                    .tag("outcome", outcome)
                    .register(registry)
                    .record(event.took());
        }
    }

    @Override
    public void held(Hold event) {
        LongTaskTimer timer = LongTaskTimer.builder("locksmith.held")
                .description("Locks held now, and for how long")
                .tags(tags(event.backend(), event.kind(), event.lockName()))
                .register(registry);
        holds.put(event, timer.start());
    }

    @Override
    public void released(HoldEnded event) {
        ended(event);
    }

    @Override
    public void lost(HoldEnded event) {
        ended(event);
        Hold hold = event.hold();
        Counter.builder("locksmith.lost")
                .description("Holds lost: lease expired, taken by another owner, session ended")
                .tags(tags(hold.backend(), hold.kind(), hold.lockName()))
                .tag("reason", event.reason().name().toLowerCase(Locale.ROOT))
                .register(registry)
                .increment();
    }

    @Override
    public void renewed(Renewal event) {
        Timer.builder("locksmith.renew")
                .description("Renewal batches, one backend call each")
                .tag("backend", event.backend())
                .register(registry)
                .record(event.took());
        count(event.backend(), "renewed", event.renewed());
        count(event.backend(), "not_owned", event.notOwned());
        count(event.backend(), "failed", event.failed());
    }

    private void count(String backend, String outcome, int n) {
        if (n > 0) {
            Counter.builder("locksmith.renew.leases")
                    .description("Leases in renewal batches, by outcome")
                    .tag("backend", backend)
                    .tag("outcome", outcome)
                    .register(registry)
                    .increment(n);
        }
    }

    private void ended(HoldEnded event) {
        LongTaskTimer.Sample sample = holds.remove(event.hold());
        if (sample != null) {
            sample.stop();
        }
    }

    private AtomicInteger waiters(String backend, String kind) {
        Tags tags = Tags.of("backend", backend, "kind", kind);
        return waiting.computeIfAbsent(tags, t -> {
            AtomicInteger n = new AtomicInteger();
            Gauge.builder("locksmith.waiting", n, AtomicInteger::get)
                    .description("Lock acquisitions waiting now")
                    .tags(t)
                    .strongReference(true)
                    .register(registry);
            return n;
        });
    }

    private Tags tags(String backend, String kind, String lockName) {
        Tags tags = Tags.of("backend", backend, "kind", kind);
        return nameTag.tags() ? tags.and("lock", nameTag.value(lockName)) : tags;
    }

    /** Builds {@link LockMeters}. */
    public static final class Builder {
        private final MeterRegistry registry;
        private ObservationRegistry observations;
        private NameTag nameTag = NameTag.none();

        private Builder(MeterRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
        }

        /**
         * @param observations where acquisitions are observed (spans, and the acquisition timer
         *     through the registry's meter handler); none by default
         * @return this builder
         */
        public Builder observations(ObservationRegistry observations) {
            this.observations = observations == null || observations.isNoop() ? null : observations;
            return this;
        }

        /**
         * @param nameTag whether and how the lock's name becomes a tag; {@link NameTag#none()} by default
         * @return this builder
         */
        public Builder nameTag(NameTag nameTag) {
            this.nameTag = Objects.requireNonNull(nameTag, "nameTag");
            return this;
        }

        /** @return the meters */
        public LockMeters build() {
            return new LockMeters(this);
        }
    }
}
