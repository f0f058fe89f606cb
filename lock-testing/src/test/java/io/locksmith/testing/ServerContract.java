package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every single server must do, proved with the backend's real client: answer, come back
 * after SIGKILL and a restart, hang while paused and answer once resumed.
 */
@ExtendWith(TestServersExtension.class)
abstract class ServerContract {

    /** How long a request must go unanswered while the server is paused. */
    static final Duration PAUSED_SILENCE = Duration.ofMillis(1500);

    /** The server under test. */
    abstract TestServer server();

    /** One request with the real client, with short timeouts; throws if it gets no answer. */
    abstract void ping(TestServer server) throws Exception;

    /** The start of the URI the server must hand out. */
    abstract String uriPrefix();

    @Test
    void answersItsProtocol() throws Exception {
        TestServer server = server();
        assertThat(server.uri()).as("uri of %s", server).startsWith(uriPrefix());
        assertThat(server.host()).isEqualTo("127.0.0.1");
        assertThat(server.version()).as("version of %s", server).isNotEqualTo("unknown");
        assertThat(server.controllable()).isTrue();
        ping(server);
    }

    @Test
    void answersAgainAfterKillAndRestart() throws Exception {
        TestServer server = server();
        int port = server.port();
        server.kill();
        assertThatThrownBy(() -> ping(server))
                .as("a request to the killed %s", server)
                .isNotNull();
        server.restart();
        assertThat(server.port()).isEqualTo(port);
        ping(server);
    }

    @Test
    void hangsWhilePausedAndAnswersAfterResume() throws Exception {
        TestServer server = server();
        ping(server);
        server.pause();
        CompletableFuture<Void> duringPause = CompletableFuture.runAsync(() -> {
            try {
                ping(server);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            duringPause.get(PAUSED_SILENCE.toMillis(), TimeUnit.MILLISECONDS);
            fail("%s answered while paused", server);
        } catch (TimeoutException | ExecutionException expected) {
            // no answer while the server is stopped: the request timed out or is still waiting
        } finally {
            server.resume();
        }
        ping(server);
        duringPause.handle((ok, e) -> null).get(30, TimeUnit.SECONDS); // let the late request finish
    }

    @Test
    void refusesToPauseAKilledServer() {
        TestServer server = server();
        server.kill();
        try {
            assertThatThrownBy(server::pause).isInstanceOf(IllegalStateException.class);
        } finally {
            server.restart();
        }
    }
}
