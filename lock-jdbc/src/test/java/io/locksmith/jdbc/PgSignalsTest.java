package io.locksmith.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.LossReason;
import io.locksmith.spi.BackendEvents;
import io.locksmith.spi.ReleaseSignals;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's release signals as the core receives them: every notification for a subscribed key
 * reaches the one callback, {@link BackendEvents#released(String)}, with the key (not the hash
 * the notification carries); none for a key not or no longer subscribed; and after the listening
 * connection is lost and made again, every subscribed key is signalled, since releases may have
 * gone unheard meanwhile. Each test listens on a table of its own, so its channel is its own.
 */
class PgSignalsTest {

    private static final long WAIT_SECONDS = 15;

    private final String table =
            "signal_locks_" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    private final String channel = Keys.channel(table);
    private final BlockingQueue<String> released = new LinkedBlockingQueue<>();
    private final BackendEvents events = new BackendEvents() {
        @Override
        public void lost(String key, String owner, LossReason reason) {
            throw new AssertionError("release signals report no loss");
        }

        @Override
        public void allLost(LossReason reason) {
            throw new AssertionError("release signals report no loss");
        }

        @Override
        public void released(String key) {
            released.add(key);
        }
    };

    private PgSignals signals() {
        String url = Database.POSTGRES.url();
        return new PgSignals(
                () -> DriverManager.getConnection(url, Database.POSTGRES.properties()), table, 5000, "test", events);
    }

    @Test
    void aNotificationReachesTheOneCallbackWithItsKeyWhileTheKeyIsSubscribed() throws Exception {
        try (PgSignals signals = signals()) {
            ReleaseSignals.Subscription a = signals.subscribe("a");
            signals.subscribe("b");
            assertThat(signals.listening())
                    .as("postgresql signals: subscribing waits until LISTEN is in effect")
                    .isTrue();
            released.clear(); // the first connect signals the keys subscribed by then

            notify("never-subscribed");
            notify("b");
            assertThat(released.poll(WAIT_SECONDS, TimeUnit.SECONDS))
                    .as("postgresql signals: a notification for a subscribed key reaches the callback with the key,"
                            + " and one for a key nobody subscribed to does not")
                    .isEqualTo("b");

            a.close();
            a.close();
            notify("a");
            notify("b");
            assertThat(released.poll(WAIT_SECONDS, TimeUnit.SECONDS))
                    .as("postgresql signals: a closed subscription's key is no longer signalled")
                    .isEqualTo("b");
            assertThat(released)
                    .as("postgresql signals: each notification is delivered once")
                    .isEmpty();
        }
    }

    @Test
    void afterTheListeningConnectionIsLostEverySubscribedKeyIsSignalled() throws Exception {
        try (PgSignals signals = signals()) {
            signals.subscribe("x");
            signals.subscribe("y");
            released.clear();

            assertThat(terminateListener())
                    .as("postgresql signals: the listening connection was found")
                    .isPositive();
            String first = released.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            String second = released.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(new String[] {first, second})
                    .as("postgresql signals: after a reconnect every subscribed key is signalled, releases may have"
                            + " gone unheard")
                    .containsExactlyInAnyOrder("x", "y");
            notify("y");
            assertThat(released.poll(WAIT_SECONDS, TimeUnit.SECONDS))
                    .as("postgresql signals: notifications are heard again after the reconnect")
                    .isEqualTo("y");
        }
    }

    private void notify(String key) throws SQLException {
        try (Connection c = Database.POSTGRES.admin();
                PreparedStatement s = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            s.setString(1, channel);
            s.setString(2, Keys.hash(key));
            s.executeQuery().close();
        }
    }

    private int terminateListener() throws SQLException {
        try (Connection c = Database.POSTGRES.admin();
                PreparedStatement s = c.prepareStatement("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        + " WHERE pid <> pg_backend_pid() AND query LIKE ?")) {
            s.setString(1, "%LISTEN " + channel + "%");
            int n = 0;
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    n++;
                }
            }
            return n;
        }
    }
}
