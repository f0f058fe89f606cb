import io.locksmith.testing.Backend;
import io.locksmith.testing.TestServer;
import io.locksmith.testing.TestServers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * Starts one server of each backend named on the command line with lock-testing's TestServers,
 * prints a {@code LOCKSMITH_TEST_*_URI=uri} line for each, then {@code ready}, and keeps them
 * running until its standard input closes. scripts/consumer-tests.sh runs it as a single-file
 * program ({@code java -cp … StartServers.java REDIS ETCD …}) so that every consumer project
 * shares one set of servers, and exports the lines to the consumer build.
 *
 * <p>The lines go to standard output, which is the script's pipe: a URI may carry a development
 * credential (Azurite's well-known key), so nothing else prints them.
 */
public final class StartServers {

    private StartServers() {
    }

    public static void main(String[] args) throws IOException {
        List<CompletableFuture<TestServer>> starting = new ArrayList<>();
        for (String name : args) {
            Backend backend = Backend.valueOf(name.toUpperCase(Locale.ROOT));
            starting.add(CompletableFuture.supplyAsync(() -> TestServers.server(backend)));   // in parallel
        }
        for (CompletableFuture<TestServer> server : starting) {
            TestServer s = server.join();
            System.out.println(s.backend().environmentVariable() + "=" + s.uri());
        }
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() != -1) {
            // the script closes our input when it is done (or dies); then the servers stop with this JVM
        }
        System.exit(0);
    }
}
