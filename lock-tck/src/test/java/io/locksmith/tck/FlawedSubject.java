package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kit's subject for a provider with one {@link Flaw} (or none): every client it opens is a
 * separate connection to one {@link MemoryServer}, and it supplies every fault hook the rules use.
 * It declares native wake-up, since the sound backend signals releases, and FIFO where the flaw's
 * backend queues.
 */
final class FlawedSubject implements TckSubject {

    private final Flaw flaw;
    private final MemoryServer server = new MemoryServer();
    private final Map<LockClient, MemoryBackend> connections = new ConcurrentHashMap<>();

    FlawedSubject(Flaw flaw) {
        this.flaw = flaw;
    }

    @Override
    public String name() {
        return "flawed/" + flaw;
    }

    @Override
    public LockClient newClient(LockOptions options) {
        MemoryBackend[] connection = new MemoryBackend[1];
        LockClient client = LockClient.of(
                context -> {
                    connection[0] = new MemoryBackend(server, "flawed://" + flaw, context);
                    return flaw.wrap(connection[0]);
                },
                options);
        connections.put(client, connection[0]);
        return client;
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder()
                .minimumLease(MemoryBackend.MINIMUM_LEASE)
                .testLease(Duration.ofSeconds(1))
                .nativeWakeUp(true)
                .fifo(flaw.queues())
                .lacks(Fault.SKEW_WALL_CLOCK) // leases by the server's clock: no client clock to skew
                .build();
    }

    /** The flaw's server by URI, through {@link FlawedProvider}, with the password it accepts. */
    @Override
    public Optional<SecretUri> secretUri() {
        String user = "kit:" + FlawedProvider.PASSWORD + "@";
        return Optional.of(
                new SecretUri("flawed://" + user + flaw, FlawedProvider.PASSWORD, "flawed://" + user + flaw + ":1"));
    }

    @Override
    public Faults faults() {
        return new Faults() {
            @Override
            public void removeLockState(String key) {
                flaw.removeLockState(server, key);
            }

            @Override
            public void cutConnection(LockClient client) {
                connections.get(client).cut();
            }

            @Override
            public void restoreConnection(LockClient client) {
                connections.get(client).restore();
            }

            @Override
            public void restartServer() {
                // the state is the server's "disk" and survives; every connection fails while it is down
                connections.values().forEach(MemoryBackend::cut);
                connections.values().forEach(MemoryBackend::restore);
            }

            @Override
            public void removeQueueEntries(String key) {
                server.clearQueue(key);
            }

            @Override
            public void delayReplies(LockClient client, Duration delay) {
                connections.get(client).delayReplies(delay);
            }
        };
    }
}
